import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mlpKernelText } from './mlp-kernel-text.js';

/** The functions of the MLP kernel module (contracts in mlp-kernel-text.ts). */
export interface MlpKernelExports {
  forwardSparse(
    rowStart: number,
    column: number,
    value: number,
    order: number,
    start: number,
    batch: number,
    weights: number,
    bias: number,
    outSize: number,
    out: number,
  ): void;
  forwardDense(
    input: number,
    inSize: number,
    batch: number,
    weights: number,
    bias: number,
    outSize: number,
    out: number,
    indexScratch: number,
    valueScratch: number,
  ): void;
  backwardBias(delta: number, batch: number, outSize: number, gradient: number): void;
  backwardSparseWeights(
    rowStart: number,
    column: number,
    value: number,
    order: number,
    start: number,
    batch: number,
    delta: number,
    outSize: number,
    gradient: number,
  ): void;
  backwardDenseWeights(
    input: number,
    inSize: number,
    batch: number,
    delta: number,
    outSize: number,
    gradient: number,
    indexScratch: number,
    valueScratch: number,
  ): void;
  backwardDenseDeltas(
    input: number,
    inSize: number,
    batch: number,
    delta: number,
    outSize: number,
    weights: number,
    previousDelta: number,
    keepScale: number,
    transposed: number,
  ): void;
  adam(
    parameters: number,
    gradient: number,
    first: number,
    second: number,
    count: number,
    rate: number,
    beta1: number,
    beta2: number,
    oneMinusBeta1: number,
    oneMinusBeta2: number,
    firstCorrection: number,
    secondCorrection: number,
    epsilon: number,
  ): void;
}

/** The slice of the WebAssembly JS API used here (the project's TypeScript libs do not declare it). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
type WasmModule = object;
interface WasmApi {
  Module: new (bytes: Uint8Array) => WasmModule;
  Instance: new (module: WasmModule, imports: object) => { exports: object };
  Memory: new (descriptor: { initial: number; maximum?: number }) => WasmMemory;
}
const wasm = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;

const PAGE_BYTES = 65536;
let compiled: WasmModule | null | undefined;

/** The binary scripts/build-wasm.mjs writes beside this module in dist/. */
export const MLP_KERNEL_BINARY = 'mlp-kernels.wasm';

function builtBinaryPath(): string {
  return join(dirname(fileURLToPath(import.meta.url)), MLP_KERNEL_BINARY);
}

/**
 * mlpKernelModule() returns the compiled MLP kernels, compiling them once per thread:
 * from the binary beside this module (dist/, built by `npm run build`), or from the
 * text assembled by prepareMlpKernels(). Returns null when neither is there (then
 * the JavaScript kernel trains, with the same results) or WebAssembly is missing.
 */
export function mlpKernelModule(): WasmModule | null {
  if (compiled !== undefined && compiled !== null) return compiled;
  if (wasm === undefined) return null;
  const path = builtBinaryPath();
  compiled = existsSync(path) ? new wasm.Module(new Uint8Array(readFileSync(path))) : null;
  return compiled;
}

/**
 * prepareMlpKernels() makes mlpKernelModule() available also where dist/ is not built
 * (vitest runs the TypeScript sources): it assembles mlpKernelText() with wabt, a
 * devDependency. A no-op when the module is already compiled. Resolves to whether
 * the kernels are available.
 */
export async function prepareMlpKernels(): Promise<boolean> {
  if (mlpKernelModule() !== null) return true;
  if (wasm === undefined) return false;
  let wabtFactory: () => Promise<{
    parseWat(
      name: string,
      text: string,
      features: Record<string, boolean>,
    ): {
      resolveNames(): void;
      validate(): void;
      toBinary(options: object): { buffer: Uint8Array };
      destroy(): void;
    };
  }>;
  try {
    wabtFactory = createRequire(import.meta.url)('wabt');
  } catch {
    return false; // an installed package without devDependencies always has the binary
  }
  const wabt = await wabtFactory();
  const module = wabt.parseWat('mlp-kernels.wat', mlpKernelText(), { simd: true });
  try {
    module.resolveNames();
    module.validate();
    compiled = new wasm.Module(module.toBinary({}).buffer);
  } finally {
    module.destroy();
  }
  return true;
}

/**
 * An instance of the MLP kernels with its own memory of `bytes` bytes (rounded up to
 * 64 KiB pages), laid out by the caller with `allocate` (8-byte aligned offsets; the
 * memory never grows, so views stay valid).
 */
export class MlpKernelInstance {
  readonly exports: MlpKernelExports;
  readonly buffer: ArrayBuffer;
  private top = 64;

  constructor(module: WasmModule, bytes: number) {
    const pages = Math.max(1, Math.ceil((bytes + 64) / PAGE_BYTES));
    const memory = new (wasm as WasmApi).Memory({ initial: pages, maximum: pages });
    const instance = new (wasm as WasmApi).Instance(module, { env: { memory } });
    this.exports = instance.exports as unknown as MlpKernelExports;
    this.buffer = memory.buffer;
  }

  /** allocate(bytes) reserves `bytes` zeroed bytes aligned to 16 and returns their offset; throws RangeError past the
   * end. */
  allocate(bytes: number): number {
    const start = Math.ceil(this.top / 16) * 16;
    if (start + bytes > this.buffer.byteLength) throw new RangeError(`MlpKernelInstance: ${bytes} bytes do not fit`);
    this.top = start + bytes;
    return start;
  }
}

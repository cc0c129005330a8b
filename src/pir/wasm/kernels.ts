import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { kernelText } from './kernel-text.js';

/** The functions exported by the PIR kernel module (see kernel-text.ts for their contracts). */
export interface KernelExports {
  answer(d: number, rows: number, columns: number, limbs: number, queries: number, out: number): void;
  ceiling(d: number, rows: number, columns: number, out: number): void;
  matmulBytes(
    left: number,
    leftStride: number,
    rows: number,
    inner: number,
    right: number,
    columns: number,
    out: number,
  ): void;
  matmulWords(left: number, rows: number, inner: number, right: number, columns: number, out: number): void;
  matvecWords(m: number, rows: number, inner: number, x: number, out: number): void;
  matmulPairs(left: number, rows: number, innerPairs: number, right: number, columns: number, out: number): void;
}

/**
 * The slice of the WebAssembly JS API used here. The project's TypeScript libs
 * (ES2022 without DOM) do not declare it, so it is typed locally.
 */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
type WasmModule = object;
interface WasmApi {
  Module: new (bytes: Uint8Array) => WasmModule;
  Instance: new (module: WasmModule, imports: object) => { exports: object };
  Memory: new (descriptor: { initial: number; maximum: number }) => WasmMemory;
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

const PAGE_BYTES = 65536;
let compiled: Promise<WasmModule> | undefined;

/** The compiled binary written by scripts/build-wasm.mjs beside this module in dist/. */
function builtBinaryPath(): string {
  return join(dirname(fileURLToPath(import.meta.url)), 'kernels.wasm');
}

async function assembleFromText(): Promise<Uint8Array> {
  // Development path (vitest runs the TypeScript sources): assemble with wabt, a
  // devDependency. Installed packages always carry the prebuilt binary.
  const require = createRequire(import.meta.url);
  const wabtFactory = require('wabt') as () => Promise<{
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
  const wabt = await wabtFactory();
  const module = wabt.parseWat('kernels.wat', kernelText(), { simd: true });
  try {
    module.resolveNames();
    module.validate();
    return module.toBinary({}).buffer;
  } finally {
    module.destroy();
  }
}

/**
 * kernelModule() compiles the PIR kernels once per process: from the prebuilt
 * dist binary when present, otherwise by assembling kernelText() with wabt.
 * Throws if WebAssembly SIMD is unavailable (Node 20 has it).
 */
export function kernelModule(): Promise<WasmModule> {
  compiled ??= (async () => {
    const path = builtBinaryPath();
    const bytes = existsSync(path) ? new Uint8Array(readFileSync(path)) : await assembleFromText();
    return new wasm.Module(bytes);
  })();
  return compiled;
}

/**
 * One instance of the kernels with its own linear memory and a bump allocator.
 * Buffers live at fixed byte offsets; typed-array views are made on demand because
 * growing the memory detaches the old ones.
 */
export class KernelInstance {
  readonly exports: KernelExports;
  private readonly memory: WasmMemory;
  private top = 16;

  private constructor(module: WasmModule) {
    this.memory = new wasm.Memory({ initial: 1, maximum: 65536 });
    const instance = new wasm.Instance(module, { env: { memory: this.memory } });
    this.exports = instance.exports as unknown as KernelExports;
  }

  /** KernelInstance.create() makes an instance of the compiled kernels with an empty memory. */
  static async create(): Promise<KernelInstance> {
    return new KernelInstance(await kernelModule());
  }

  /** Reserves `bytes` zeroed bytes aligned to 64 and returns their offset. */
  allocate(bytes: number): number {
    const start = Math.ceil(this.top / 64) * 64;
    const end = start + Math.max(bytes, 0);
    const needed = Math.ceil(end / PAGE_BYTES) - this.memory.buffer.byteLength / PAGE_BYTES;
    if (needed > 0) this.memory.grow(needed);
    this.top = end;
    new Uint8Array(this.memory.buffer, start, bytes).fill(0);
    return start;
  }

  /** The current allocation mark, to release scratch space later with `release`. */
  mark(): number {
    return this.top;
  }

  /** Frees everything allocated after `mark` (scratch buffers of one call). */
  release(mark: number): void {
    this.top = mark;
  }

  bytes(offset: number, length: number): Uint8Array {
    return new Uint8Array(this.memory.buffer, offset, length);
  }

  words(offset: number, length: number): Uint32Array {
    return new Uint32Array(this.memory.buffer, offset, length);
  }

  halves(offset: number, length: number): Int16Array {
    return new Int16Array(this.memory.buffer, offset, length);
  }
}

import { existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compiledModule, packageRoot } from '../util/paths.js';
import { ThreadPool } from '../util/thread-pool.js';
import type { KindRunner } from './kind-runner.js';
import type { PlanCell, PlanChunk } from './plan.js';
import type { WorkerCell, WorkerRequest, WorkerSetup } from './worker-protocol.js';

/**
 * kindModuleFile(kind) is the file a worker thread imports to get the kind: its own
 * module; inside the package a source file (src/…/*.ts under vitest) maps to its
 * compiled dist/ file, since worker threads run plain JavaScript. Throws an Error
 * when that file is missing (the package is not built).
 */
export function kindModuleFile(kind: KindRunner): string {
  const path = kind.module.startsWith('file:') ? fileURLToPath(kind.module) : kind.module;
  const root = packageRoot();
  const inPackage = relative(root, path);
  const inSources = !inPackage.startsWith('..') && !inPackage.startsWith(`dist${sep}`) && /\.ts$/.test(path);
  const file = inSources ? join(root, 'dist', inPackage.replace(/\.ts$/, '.js')) : path;
  if (!existsSync(file)) throw new Error(`kind ${kind.name}: its module ${file} is missing; run "npm run build" first`);
  return file;
}

/**
 * What runs a run's chunks: a pool of worker threads (WorkerPool), or in a benchmark's
 * dry run something that only makes payloads. run-experiment keeps at most
 * size × depth chunks in flight.
 */
export interface ChunkRunner {
  readonly size: number;
  readonly depth: number;
  /** Prepares the context of a cell (the check before anything is written); rejects with its error. */
  check(cell: PlanCell): Promise<void>;
  /** Runs one chunk of a cell; resolves with its payload bytes (encodeChunkPayload). */
  run(chunk: PlanChunk, cell: PlanCell): Promise<Uint8Array>;
  close(): Promise<void>;
}

function workerCell(cell: PlanCell): WorkerCell {
  return { index: cell.index, key: cell.key, settings: cell.settings };
}

/**
 * A fixed pool of worker threads running dist/src/harness/worker.js (a ThreadPool, with
 * `depth` requests in flight per worker). run(chunk) sends a chunk to the worker with the
 * fewest requests in flight and resolves with the chunk's payload bytes
 * (encodeChunkPayload); check(cell) has a worker prepare the cell's context. Callers keep
 * at most size × depth requests in flight (run-experiment bounds them with p-limit), so a
 * worker always has its next chunk queued while the main thread handles the last one. A
 * chunk carries its cell only when the worker's last chunk was of another cell. A worker's
 * InputError comes back as an InputError; any other failure as an Error with the worker's stack.
 */
export class WorkerPool implements ChunkRunner {
  private readonly pool: ThreadPool<WorkerRequest, Uint8Array | undefined>;
  /** The cell of the last chunk sent to each worker (it keeps that one). */
  private readonly lastCell: number[];

  constructor(
    readonly size: number,
    setup: WorkerSetup,
    /** Requests in flight per worker: 2 keeps the next chunk waiting in the worker. */
    readonly depth = 2,
  ) {
    this.pool = new ThreadPool(compiledModule('harness/worker.js'), { size, workerData: setup, depth, name: 'worker' });
    this.lastCell = new Array<number>(size).fill(-1);
  }

  /** Runs one chunk on the worker with the fewest requests in flight; resolves with the chunk's payload bytes. */
  async run(chunk: PlanChunk, cell: PlanCell): Promise<Uint8Array> {
    const request = (worker: number): WorkerRequest => {
      const changed = this.lastCell[worker] !== cell.index;
      this.lastCell[worker] = cell.index;
      return { type: 'chunk', chunk, ...(changed ? { cell: workerCell(cell) } : {}) };
    };
    return (await this.pool.run(request)) as Uint8Array;
  }

  /** Has a worker prepare the context of a plan cell; rejects with its error. */
  async check(cell: PlanCell): Promise<void> {
    await this.pool.run({ type: 'check', cell: workerCell(cell) });
  }

  /** Stops every worker. */
  async close(): Promise<void> {
    await this.pool.close();
  }
}

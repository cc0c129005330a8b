import { existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { InputError } from '../util/errors.js';
import { compiledModule, packageRoot } from '../util/paths.js';
import type { KindRunner } from './kind-runner.js';
import type { PlanCell, PlanChunk } from './plan.js';
import type { WorkerCell, WorkerReply, WorkerRequest, WorkerSetup } from './worker-protocol.js';

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

interface Pending {
  resolve: (payload: Uint8Array | undefined) => void;
  reject: (error: Error) => void;
}

interface PoolWorker {
  worker: Worker;
  /** Requests sent and not yet answered, by id. */
  pending: Map<number, Pending>;
  /** The cell of the last chunk sent to this worker (it keeps that one). */
  lastCell: number;
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
 * A fixed pool of worker threads running dist/src/harness/worker.js. run(chunk) queues
 * a chunk on the worker with the fewest requests in flight and resolves with the
 * chunk's payload bytes (encodeChunkPayload); check(cell) has a worker prepare the
 * cell's context. Callers keep at most `depth` requests in flight per worker
 * (run-experiment bounds them with p-limit), so a worker always has its next chunk
 * queued while the main thread handles the last one. A worker's InputError comes back
 * as an InputError; any other failure as an Error with the worker's stack.
 */
export class WorkerPool implements ChunkRunner {
  private readonly workers: PoolWorker[] = [];
  private nextId = 0;
  private nextCheck = 0;

  constructor(
    readonly size: number,
    setup: WorkerSetup,
    /** Requests in flight per worker: 2 keeps the next chunk waiting in the worker. */
    readonly depth = 2,
  ) {
    const file = compiledModule('harness/worker.js');
    for (let i = 0; i < size; i++) {
      const entry: PoolWorker = { worker: new Worker(file, { workerData: setup }), pending: new Map(), lastCell: -1 };
      const failAll = (error: Error) => {
        for (const pending of entry.pending.values()) pending.reject(error);
        entry.pending.clear();
      };
      entry.worker.on('message', (reply: WorkerReply) => {
        const pending = entry.pending.get(reply.id);
        if (!pending) return;
        entry.pending.delete(reply.id);
        if (reply.type === 'done') pending.resolve(reply.payload);
        else if (reply.inputError) pending.reject(new InputError(reply.message));
        else pending.reject(new Error(`worker failed: ${reply.stack}`));
      });
      entry.worker.on('error', failAll);
      entry.worker.on('exit', (code) => failAll(new Error(`worker exited with code ${code} during a chunk`)));
      this.workers.push(entry);
    }
  }

  private send(entry: PoolWorker, request: WorkerRequest): Promise<Uint8Array | undefined> {
    return new Promise((resolve, reject) => {
      entry.pending.set(request.id, { resolve, reject });
      entry.worker.postMessage(request);
    });
  }

  /**
   * Runs one chunk on the worker with the fewest requests in flight (the first such);
   * resolves with the chunk's payload bytes.
   */
  async run(chunk: PlanChunk, cell: PlanCell): Promise<Uint8Array> {
    let entry = this.workers[0];
    for (const candidate of this.workers) if (candidate.pending.size < entry.pending.size) entry = candidate;
    const changed = entry.lastCell !== cell.index;
    entry.lastCell = cell.index;
    return (await this.send(entry, {
      type: 'chunk',
      id: this.nextId++,
      chunk,
      ...(changed ? { cell: workerCell(cell) } : {}),
    })) as Uint8Array;
  }

  /** Has a worker (the next in turn) prepare the context of a plan cell; rejects with its error. */
  async check(cell: PlanCell): Promise<void> {
    const entry = this.workers[this.nextCheck++ % this.workers.length];
    await this.send(entry, { type: 'check', id: this.nextId++, cell: workerCell(cell) });
  }

  /** Stops every worker. */
  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.worker.terminate()));
  }
}

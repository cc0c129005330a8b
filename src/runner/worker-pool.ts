import { existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { InputError } from '../util/errors.js';
import { compiledModule, packageRoot } from '../util/paths.js';
import type { ExperimentKind } from './kind.js';
import type { PlanChunk } from './plan.js';
import type { ColumnData } from './results-table.js';
import type { ChunkReply, WorkerSetup } from './worker-protocol.js';

/**
 * kindModuleFile(kind) is the compiled file a worker thread should import to get the
 * kind (its own module, under dist/ even when the caller runs from src/ under
 * vitest), or null when the kind does not name its module or it is not compiled.
 */
export function kindModuleFile(kind: ExperimentKind): string | null {
  if (!kind.module) return null;
  const path = fileURLToPath(kind.module);
  const root = packageRoot();
  const inPackage = relative(root, path);
  const compiled = inPackage.startsWith(`dist${sep}`) ? path : join(root, 'dist', inPackage.replace(/\.ts$/, '.js'));
  return existsSync(compiled) ? compiled : null;
}

interface PoolWorker {
  worker: Worker;
  busy: boolean;
  pending?: { resolve: (outcomes: ColumnData) => void; reject: (error: Error) => void };
}

/**
 * A fixed pool of worker threads running dist/src/runner/worker.js. run(chunk) sends
 * a chunk to an idle worker and resolves with its outcome columns; callers keep at
 * most `size` chunks in flight (run-experiment bounds them with p-limit). A worker's
 * InputError comes back as an InputError; any other failure as an Error with the
 * worker's stack.
 */
export class WorkerPool {
  private readonly workers: PoolWorker[] = [];

  constructor(
    readonly size: number,
    setup: WorkerSetup,
  ) {
    const file = compiledModule('runner/worker.js');
    for (let i = 0; i < size; i++) {
      const entry: PoolWorker = { worker: new Worker(file, { workerData: setup }), busy: false };
      entry.worker.on('message', (reply: ChunkReply) => {
        const pending = entry.pending;
        entry.pending = undefined;
        entry.busy = false;
        if (!pending) return;
        if (reply.type === 'done') pending.resolve(reply.outcomes);
        else if (reply.inputError) pending.reject(new InputError(reply.message));
        else pending.reject(new Error(`worker failed on chunk ${reply.chunk}: ${reply.stack}`));
      });
      entry.worker.on('error', (error) => {
        entry.pending?.reject(error);
        entry.pending = undefined;
      });
      entry.worker.on('exit', (code) => {
        entry.pending?.reject(new Error(`worker exited with code ${code} during a chunk`));
        entry.pending = undefined;
      });
      this.workers.push(entry);
    }
  }

  /** Runs one chunk on an idle worker. Throws if every worker is busy (a caller bug). */
  run(chunk: PlanChunk): Promise<ColumnData> {
    const entry = this.workers.find((w) => !w.busy);
    if (!entry) throw new Error('WorkerPool.run: every worker is busy; bound the calls to the pool size');
    entry.busy = true;
    return new Promise<ColumnData>((resolve, reject) => {
      entry.pending = { resolve, reject };
      entry.worker.postMessage({ chunk });
    });
  }

  /** Stops every worker. */
  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.worker.terminate()));
  }
}

import type { SettingsOrigin } from './kind-runner.js';
import type { PlanChunk } from './plan.js';

/** What a worker thread is started with (workerData). */
export interface WorkerSetup {
  kind: string;
  /** The compiled module that exports the kind (the worker imports it alone). */
  kindModule: string;
  seed: string;
  origin: SettingsOrigin;
}

/** A plan cell as a worker needs it: its index, canonical key and full settings. */
export interface WorkerCell {
  index: number;
  key: string;
  settings: Record<string, unknown>;
}

/**
 * A message from the main thread: prepare the context of a cell (the check, before
 * anything is written, that the run's input is good), or run a chunk. A worker
 * answers its requests one at a time, in the order they came (serveThreadPool), with the
 * chunk's payload as the bytes of encodeChunkPayload, transferred. A chunk request carries
 * its cell only when the worker's previous request was for another cell (the worker
 * keeps the last cell it was sent), so a plan's cells are never all held by a worker.
 */
export type WorkerRequest =
  | { type: 'check'; cell: WorkerCell }
  | { type: 'chunk'; chunk: PlanChunk; cell?: WorkerCell };

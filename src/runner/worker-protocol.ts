import type { SettingsOrigin } from './kind.js';
import type { PlanChunk } from './plan.js';
import type { ColumnData } from './results-table.js';

/** What a worker thread is started with (workerData). */
export interface WorkerSetup {
  kind: string;
  /** The compiled module that exports the kind, or null to look it up in the registry. */
  kindModule: string | null;
  seed: string;
  cells: { key: string; settings: Record<string, unknown> }[];
  origin: SettingsOrigin;
}

/** A message from the main thread: run this chunk. */
export interface ChunkRequest {
  chunk: PlanChunk;
}

/** A worker's answer: the chunk's outcome columns, or the error that stopped it. */
export type ChunkReply =
  | { type: 'done'; chunk: number; outcomes: ColumnData }
  | { type: 'error'; chunk: number; message: string; stack: string; inputError: boolean };

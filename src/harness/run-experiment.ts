import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import pLimit from 'p-limit';
import { writeFileAtomic } from '../util/atomic-write.js';
import { assembleResults, resultColumns, resultMetadata } from './assemble-results.js';
import { Checkpoints, type CompletedChunk } from './checkpoints.js';
import { type ChunkPayload, decodeChunkPayload } from './chunk-payload.js';
import type { ExperimentConfig } from './config.js';
import type { KindRunner } from './kind-runner.js';
import { findKindRunner } from './kind-runners.js';
import { buildPlan, chunksOfShard, type Plan, type PlanChunk, type Shard } from './plan.js';
import { encodeResultTable } from './results-table.js';
import { buildRunRecord, fairauditVersion, gitCommit, readRunRecord } from './run-record.js';
import { kindModuleFile, WorkerPool } from './worker-pool.js';

/**
 * Completed chunks are checkpointed together at most this often (milliseconds): a run
 * killed with SIGKILL loses at most the chunks of the last quarter second.
 */
const CHECKPOINT_INTERVAL_MS = 250;

/** Options of runExperiment. */
export interface RunOptions {
  /** Worker threads (default: one per core). */
  threads?: number;
  /** Output folder (default results/<experiment>, or results/<experiment>/shard-i-of-n for a shard). */
  outDirectory?: string;
  /** Run only this share of the plan. */
  shard?: Shard;
  /** Continue an interrupted run from its checkpoints. */
  resume?: boolean;
  /** Called with (replicates done, replicates in this run) as chunks complete. */
  onProgress?: (done: number, total: number) => void;
}

/** What runExperiment did. */
export interface RunSummary {
  outDirectory: string;
  resultsFile: string;
  runFile: string;
  rows: number;
  cells: number;
  /** Chunks taken from checkpoints. */
  resumedChunks: number;
  /** Chunks computed now. */
  ranChunks: number;
  threads: number;
  wallSeconds: number;
  /** True when --resume found the run already finished and did nothing. */
  alreadyComplete: boolean;
}

/** The default output folder of an experiment (or of one shard of it), relative to the working folder. */
export function defaultOutDirectory(experiment: string, shard?: Shard): string {
  const base = join('results', experiment);
  return shard ? join(base, `shard-${shard.index}-of-${shard.count}`) : base;
}

/**
 * runExperiment(config, options) runs a validated experiment: plan → run the chunks of
 * the plan (or of one shard) on a pool of worker threads, two chunks queued per
 * thread, after a worker has prepared every context the run needs (bad input stops
 * the run there, before anything is written) → checkpoint each completed chunk
 * atomically →
 * write results.arrow (rows in canonical order; the same plan gives the same bytes
 * whatever the threads, shards or interruptions) and run.json (config, plan,
 * provenance) → remove the checkpoints.
 * Throws InputError for bad input (exit 2); the output folder is then untouched.
 */
export async function runExperiment(config: ExperimentConfig, options: RunOptions = {}): Promise<RunSummary> {
  const started = new Date();
  const kind = findKindRunner(config.kind) as KindRunner;
  const plan = buildPlan(config, kind);
  const shard = options.shard ?? null;
  const outDirectory = options.outDirectory ?? defaultOutDirectory(config.experiment, options.shard);
  const resultsFile = join(outDirectory, 'results.arrow');
  const runFile = join(outDirectory, 'run.json');
  const chunks = chunksOfShard(plan, options.shard);
  const rows = chunks.reduce((sum, chunk) => sum + chunk.count, 0);
  const origin = { configFile: config.file, baseDirectory: config.baseDirectory };
  // Where the run's files are and how big it is: the same whether it runs now or was already done.
  const written = { outDirectory, resultsFile, runFile, rows, cells: plan.cells.length };

  if (options.resume && existsSync(resultsFile) && existsSync(runFile)) {
    const previous = readRunRecord(outDirectory);
    if (previous.plan.fingerprint === plan.fingerprint && JSON.stringify(previous.shard) === JSON.stringify(shard)) {
      new Checkpoints(outDirectory).clear(); // left behind if the run was killed after writing run.json
      return { ...written, resumedChunks: chunks.length, ranChunks: 0, threads: 0, wallSeconds: 0, alreadyComplete: true };
    }
  }

  // Workers start loading their modules while the main thread reads the checkpoints.
  const threads = Math.max(1, Math.min(options.threads ?? availableParallelism(), Math.max(1, chunks.length)));
  const pool = new WorkerPool(threads, {
    kind: kind.name,
    kindModule: kindModuleFile(kind),
    seed: plan.seed,
    cells: plan.cells.map((cell) => ({ key: cell.key, settings: cell.settings })),
    origin,
  });
  const checkpoints = new Checkpoints(outDirectory);
  const done = new Map<number, ChunkPayload>();
  let resumedChunks = 0;
  let ranChunks = 0;
  let cancelSave = () => {};
  try {
    const resumed = options.resume ? checkpoints.resume(plan.fingerprint, shard, kind.outcomeColumns) : undefined;
    const chunkCount = new Map(chunks.map((chunk) => [chunk.index, chunk.count]));
    for (const [index, payload] of resumed ?? []) if (chunkCount.get(index) === payload.rows) done.set(index, payload);
    const fresh = done.size === 0;
    resumedChunks = chunks.filter((chunk) => done.has(chunk.index)).length;
    const remaining = chunks.filter((chunk) => !done.has(chunk.index));
    ranChunks = remaining.length;
    let completed = chunks.filter((chunk) => done.has(chunk.index)).reduce((sum, chunk) => sum + chunk.count, 0);
    options.onProgress?.(completed, rows);

    const limit = pLimit(threads * pool.depth);
    let failed = false;
    const stop = () => {
      failed = true;
      limit.clearQueue();
    };
    // Every context this run needs is prepared once by a worker before anything is
    // written: bad input (InputError) stops the run with the output folder untouched.
    // Chunks start at once; their checkpoints wait for the checks.
    const contextCells = new Map<string, number>();
    for (const chunk of remaining) {
      const key = kind.contextKey(plan.cells[chunk.cell].settings);
      if (!contextCells.has(key)) contextCells.set(key, chunk.cell);
    }
    // Completed chunks are written together at most every CHECKPOINT_INTERVAL_MS: on this
    // machine creating a file costs ~0.5 ms of main-thread CPU, a chunk ~35 ms of a worker's.
    const unsaved: CompletedChunk[] = [];
    let lastSaved = 0;
    let saveTimer: NodeJS.Timeout | undefined;
    let saveError: unknown;
    const saveUnsaved = () => {
      clearTimeout(saveTimer);
      saveTimer = undefined;
      if (failed) return;
      try {
        checkpoints.save(unsaved.splice(0));
      } catch (error) {
        saveError ??= error;
        stop();
      }
      lastSaved = Date.now();
    };
    cancelSave = () => clearTimeout(saveTimer);
    const writable = Promise.all([...contextCells.values()].map((cell) => pool.check(cell))).then(() => {
      if (fresh) checkpoints.start(plan.fingerprint, shard);
    });
    writable.catch(stop);
    // The limited stage is only the worker's compute (two chunks queued per worker),
    // so a worker has its next chunk while the main thread writes the last checkpoint.
    await Promise.all([
      writable,
      ...remaining.map((chunk) =>
        limit(() => (failed ? Promise.resolve(undefined) : pool.run(chunk))).then(
          async (payload) => {
            if (!payload) return;
            await writable;
            if (failed) return;
            unsaved.push({ chunk, payload });
            const wait = lastSaved + CHECKPOINT_INTERVAL_MS - Date.now();
            if (wait <= 0) saveUnsaved();
            else saveTimer ??= setTimeout(saveUnsaved, wait);
            done.set(chunk.index, decodeChunkPayload(payload, kind.outcomeColumns, `chunk ${chunk.index}`));
            completed += chunk.count;
            options.onProgress?.(completed, rows);
          },
          (error: unknown) => {
            stop();
            throw error;
          },
        ),
      ),
    ]);
    if (saveError) throw saveError;
  } finally {
    cancelSave();
    await pool.close();
  }

  const payloadOf = (chunk: PlanChunk) => done.get(chunk.index) as ChunkPayload;
  const data = assembleResults(
    plan,
    kind,
    chunks,
    (chunk) => payloadOf(chunk).outcomes,
    (chunk) => payloadOf(chunk).seeds,
  );
  writeFileAtomic(resultsFile, encodeResultTable(resultColumns(plan, kind), data, resultMetadata(plan)));
  const finished = new Date();
  const wallSeconds = (finished.getTime() - started.getTime()) / 1000;
  const record = buildRunRecord(config, plan, kind, shard, rows, {
    fairauditVersion: fairauditVersion(),
    nodeVersion: process.version,
    gitCommit: gitCommit(),
    masterSeed: plan.seed,
    threads,
    shard,
    wallSeconds,
    startedAt: started.toISOString(),
    finishedAt: finished.toISOString(),
    resumedChunks,
    ranChunks,
  });
  writeFileAtomic(runFile, `${JSON.stringify(record, null, 2)}\n`);
  checkpoints.clear();
  return { ...written, resumedChunks, ranChunks, threads, wallSeconds, alreadyComplete: false };
}

export type { Plan };

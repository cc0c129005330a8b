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

/** Stage 1 (plan): the kind, the plan, this run's chunks and where its files go. */
interface RunPlan {
  config: ExperimentConfig;
  kind: KindRunner;
  plan: Plan;
  shard: Shard | null;
  chunks: PlanChunk[];
  rows: number;
  written: Pick<RunSummary, 'outDirectory' | 'resultsFile' | 'runFile' | 'rows' | 'cells'>;
}

/** Stage 3 (run): every chunk's payload, and how many came from checkpoints. */
interface ChunkOutcomes {
  done: Map<number, ChunkPayload>;
  resumedChunks: number;
  ranChunks: number;
  threads: number;
}

function planRun(config: ExperimentConfig, options: RunOptions): RunPlan {
  const kind = findKindRunner(config.kind) as KindRunner;
  const plan = buildPlan(config, kind);
  const outDirectory = options.outDirectory ?? defaultOutDirectory(config.experiment, options.shard);
  const chunks = chunksOfShard(plan, options.shard);
  const rows = chunks.reduce((sum, chunk) => sum + chunk.count, 0);
  // Where the run's files are and how big it is: the same whether it runs now or was already done.
  const written = { outDirectory, resultsFile: join(outDirectory, 'results.arrow'), runFile: join(outDirectory, 'run.json'), rows, cells: plan.cells.length };
  return { config, kind, plan, shard: options.shard ?? null, chunks, rows, written };
}

/** Stage 2: with --resume, a run whose results.arrow and run.json are for this plan and shard is already complete. */
function alreadyComplete(run: RunPlan, options: RunOptions): RunSummary | null {
  const { resultsFile, runFile, outDirectory } = run.written;
  if (!options.resume || !existsSync(resultsFile) || !existsSync(runFile)) return null;
  const previous = readRunRecord(outDirectory);
  if (previous.plan.fingerprint !== run.plan.fingerprint || JSON.stringify(previous.shard) !== JSON.stringify(run.shard)) return null;
  new Checkpoints(outDirectory).clear(); // left behind if the run was killed after writing run.json
  return { ...run.written, resumedChunks: run.chunks.length, ranChunks: 0, threads: 0, wallSeconds: 0, alreadyComplete: true };
}

/** The worker pool of a run: its threads load the kind's module while the main thread reads the checkpoints. */
function startWorkers(run: RunPlan, options: RunOptions): WorkerPool {
  const threads = Math.max(1, Math.min(options.threads ?? availableParallelism(), Math.max(1, run.chunks.length)));
  return new WorkerPool(threads, {
    kind: run.kind.name,
    kindModule: kindModuleFile(run.kind),
    seed: run.plan.seed,
    cells: run.plan.cells.map((cell) => ({ key: cell.key, settings: cell.settings })),
    origin: { configFile: run.config.file, baseDirectory: run.config.baseDirectory },
  });
}

/** The chunks --resume takes from the checkpoints (those of this plan whose size matches). */
function resumedChunks(run: RunPlan, checkpoints: Checkpoints, options: RunOptions): Map<number, ChunkPayload> {
  const done = new Map<number, ChunkPayload>();
  const resumed = options.resume ? checkpoints.resume(run.plan.fingerprint, run.shard, run.kind.outcomeColumns) : undefined;
  const chunkCount = new Map(run.chunks.map((chunk) => [chunk.index, chunk.count]));
  for (const [index, payload] of resumed ?? []) if (chunkCount.get(index) === payload.rows) done.set(index, payload);
  return done;
}

/**
 * Completed chunks, checkpointed together at most every CHECKPOINT_INTERVAL_MS: on
 * this machine creating a file costs ~0.5 ms of main-thread CPU, a chunk ~35 ms of a
 * worker's. A failed save stops the run (onError) and is rethrown by rethrow().
 */
function checkpointBatcher(checkpoints: Checkpoints, isStopped: () => boolean, onError: () => void) {
  const unsaved: CompletedChunk[] = [];
  let lastSaved = 0;
  let timer: NodeJS.Timeout | undefined;
  let saveError: unknown;
  const save = () => {
    clearTimeout(timer);
    timer = undefined;
    if (isStopped()) return;
    try {
      checkpoints.save(unsaved.splice(0));
    } catch (error) {
      saveError ??= error;
      onError();
    }
    lastSaved = Date.now();
  };
  return {
    add(completed: CompletedChunk): void {
      unsaved.push(completed);
      const wait = lastSaved + CHECKPOINT_INTERVAL_MS - Date.now();
      if (wait <= 0) save();
      else timer ??= setTimeout(save, wait);
    },
    cancel: () => clearTimeout(timer),
    rethrow(): void {
      if (saveError) throw saveError;
    },
  };
}

/**
 * Stage 3 (run): the remaining chunks on the worker pool, two queued per thread, after
 * a worker has prepared every context the run needs (bad input stops the run there,
 * before anything is written); each completed chunk is checkpointed.
 */
async function runChunks(run: RunPlan, options: RunOptions): Promise<ChunkOutcomes> {
  const pool = startWorkers(run, options);
  const checkpoints = new Checkpoints(run.written.outDirectory);
  let failed = false;
  const limit = pLimit(pool.size * pool.depth);
  const stop = () => {
    failed = true;
    limit.clearQueue();
  };
  const batcher = checkpointBatcher(checkpoints, () => failed, stop);
  try {
    const done = resumedChunks(run, checkpoints, options);
    const fresh = done.size === 0;
    const remaining = run.chunks.filter((chunk) => !done.has(chunk.index));
    let completed = run.chunks.filter((chunk) => done.has(chunk.index)).reduce((sum, chunk) => sum + chunk.count, 0);
    options.onProgress?.(completed, run.rows);
    const writable = checkContexts(run, pool, remaining, () => fresh && checkpoints.start(run.plan.fingerprint, run.shard));
    writable.catch(stop);
    // The limited stage is only the worker's compute (two chunks queued per worker),
    // so a worker has its next chunk while the main thread writes the last checkpoint.
    const computeOne = (chunk: PlanChunk) =>
      limit(() => (failed ? Promise.resolve(undefined) : pool.run(chunk))).then(
        async (payload) => {
          if (!payload) return;
          await writable;
          if (failed) return;
          batcher.add({ chunk, payload });
          done.set(chunk.index, decodeChunkPayload(payload, run.kind.outcomeColumns, `chunk ${chunk.index}`));
          completed += chunk.count;
          options.onProgress?.(completed, run.rows);
        },
        (error: unknown) => {
          stop();
          throw error;
        },
      );
    await Promise.all([writable, ...remaining.map(computeOne)]);
    batcher.rethrow();
    return { done, resumedChunks: run.chunks.length - remaining.length, ranChunks: remaining.length, threads: pool.size };
  } finally {
    batcher.cancel();
    await pool.close();
  }
}

/**
 * Every context the remaining chunks need, prepared once by a worker (one cell per
 * context key) before anything is written; then `whenPassed` (the checkpoints start).
 * Chunks start at once; their checkpoints wait for these checks.
 */
function checkContexts(run: RunPlan, pool: WorkerPool, remaining: readonly PlanChunk[], whenPassed: () => void): Promise<void> {
  const cells = new Map<string, number>();
  for (const chunk of remaining) {
    const key = run.kind.contextKey(run.plan.cells[chunk.cell].settings);
    if (!cells.has(key)) cells.set(key, chunk.cell);
  }
  return Promise.all([...cells.values()].map((cell) => pool.check(cell))).then(whenPassed);
}

/** Stage 4 (write): results.arrow in canonical order, run.json with the provenance, then the checkpoints go. */
function writeResults(run: RunPlan, outcomes: ChunkOutcomes, started: Date): number {
  const payloadOf = (chunk: PlanChunk) => outcomes.done.get(chunk.index) as ChunkPayload;
  const data = assembleResults(run.plan, run.kind, run.chunks, (chunk) => payloadOf(chunk).outcomes, (chunk) => payloadOf(chunk).seeds);
  writeFileAtomic(run.written.resultsFile, encodeResultTable(resultColumns(run.plan, run.kind), data, resultMetadata(run.plan)));
  const finished = new Date();
  const wallSeconds = (finished.getTime() - started.getTime()) / 1000;
  const record = buildRunRecord(run.config, run.plan, run.kind, run.shard, run.rows, {
    fairauditVersion: fairauditVersion(),
    nodeVersion: process.version,
    gitCommit: gitCommit(),
    masterSeed: run.plan.seed,
    threads: outcomes.threads,
    shard: run.shard,
    wallSeconds,
    startedAt: started.toISOString(),
    finishedAt: finished.toISOString(),
    resumedChunks: outcomes.resumedChunks,
    ranChunks: outcomes.ranChunks,
  });
  writeFileAtomic(run.written.runFile, `${JSON.stringify(record, null, 2)}\n`);
  new Checkpoints(run.written.outDirectory).clear();
  return wallSeconds;
}

/**
 * runExperiment(config, options) runs a validated experiment in named stages:
 * plan (the kind's plan, this shard's chunks) → already complete? (with --resume) →
 * run (the chunks on a pool of worker threads, two chunks queued per thread, after a
 * worker has prepared every context the run needs: bad input stops the run there,
 * before anything is written; each completed chunk checkpointed atomically) → write
 * (results.arrow, rows in canonical order: the same plan gives the same bytes whatever
 * the threads, shards or interruptions; run.json with config, plan and provenance;
 * then the checkpoints are removed).
 * Throws InputError for bad input (exit 2); the output folder is then untouched.
 */
export async function runExperiment(config: ExperimentConfig, options: RunOptions = {}): Promise<RunSummary> {
  const started = new Date();
  const run = planRun(config, options);
  const complete = alreadyComplete(run, options);
  if (complete) return complete;
  await run.kind.beforeRun?.(run.plan.cells.map((cell) => cell.settings), { configFile: config.file, baseDirectory: config.baseDirectory }, { threads: options.threads });
  const outcomes = await runChunks(run, options);
  const wallSeconds = writeResults(run, outcomes, started);
  const { resumedChunks, ranChunks, threads } = outcomes;
  return { ...run.written, resumedChunks, ranChunks, threads, wallSeconds, alreadyComplete: false };
}

export type { Plan };

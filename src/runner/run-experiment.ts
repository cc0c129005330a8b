import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import pLimit from 'p-limit';
import { writeFileAtomic } from '../util/atomic-write.js';
import { assembleResults, resultColumns, resultMetadata } from './assemble-results.js';
import { Checkpoints } from './checkpoints.js';
import type { ExperimentConfig } from './config.js';
import type { ExperimentKind } from './kind.js';
import { findKind } from './kinds.js';
import { buildPlan, chunksOfShard, type Plan, type Shard } from './plan.js';
import { type ColumnData, encodeResultTable } from './results-table.js';
import { buildRunRecord, fairauditVersion, gitCommit, readRunRecord } from './run-record.js';
import { kindModuleFile, WorkerPool } from './worker-pool.js';

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
 * runExperiment(config, options) runs a validated experiment: plan → check every
 * context in the main thread (bad input stops here, before anything is written) →
 * run the chunks of the plan (or of one shard) on a pool of worker threads, at most
 * one chunk in flight per thread, checkpointing each completed chunk atomically →
 * write results.arrow (rows in canonical order; the same plan gives the same bytes
 * whatever the threads, shards or interruptions) and run.json (config, plan,
 * provenance) → remove the checkpoints.
 * Throws InputError for bad input (exit 2); the output folder is then untouched.
 */
export async function runExperiment(config: ExperimentConfig, options: RunOptions = {}): Promise<RunSummary> {
  const started = new Date();
  const kind = findKind(config.kind) as ExperimentKind;
  const plan = buildPlan(config, kind);
  const shard = options.shard ?? null;
  const outDirectory = options.outDirectory ?? defaultOutDirectory(config.experiment, options.shard);
  const resultsFile = join(outDirectory, 'results.arrow');
  const runFile = join(outDirectory, 'run.json');
  const chunks = chunksOfShard(plan, options.shard);
  const rows = chunks.reduce((sum, chunk) => sum + chunk.count, 0);
  const origin = { configFile: config.file, baseDirectory: config.baseDirectory };

  if (options.resume && existsSync(resultsFile) && existsSync(runFile)) {
    const previous = readRunRecord(outDirectory);
    if (previous.plan.fingerprint === plan.fingerprint && JSON.stringify(previous.shard) === JSON.stringify(shard)) {
      new Checkpoints(outDirectory).clear(); // left behind if the run was killed after writing run.json
      return {
        outDirectory,
        resultsFile,
        runFile,
        rows,
        cells: plan.cells.length,
        resumedChunks: chunks.length,
        ranChunks: 0,
        threads: 0,
        wallSeconds: 0,
        alreadyComplete: true,
      };
    }
  }

  // Workers start loading their modules while the main thread checks the input.
  const threads = Math.max(1, Math.min(options.threads ?? availableParallelism(), Math.max(1, chunks.length)));
  const pool = new WorkerPool(threads, {
    kind: kind.name,
    kindModule: kindModuleFile(kind),
    seed: plan.seed,
    cells: plan.cells.map((cell) => ({ key: cell.key, settings: cell.settings })),
    origin,
  });
  const checkpoints = new Checkpoints(outDirectory);
  const done = new Map<number, ColumnData>();
  let resumedChunks = 0;
  let ranChunks = 0;
  try {
    // Check every context this run needs once, in the main thread, before writing anything.
    const usedCells = [...new Set(chunks.map((chunk) => chunk.cell))].map((index) => plan.cells[index]);
    const checked = new Set<string>();
    for (const cell of usedCells) {
      const key = kind.contextKey(cell.settings);
      if (checked.has(key)) continue;
      checked.add(key);
      await kind.prepare(cell.settings, origin);
    }

    const resumed = options.resume ? checkpoints.resume(plan.fingerprint, shard, kind.outcomeColumns) : undefined;
    for (const [index, outcomes] of resumed ?? []) done.set(index, outcomes);
    if (done.size === 0) checkpoints.start(plan.fingerprint, shard);
    resumedChunks = chunks.filter((chunk) => done.has(chunk.index)).length;
    const remaining = chunks.filter((chunk) => !done.has(chunk.index));
    ranChunks = remaining.length;
    let completed = chunks.filter((chunk) => done.has(chunk.index)).reduce((sum, chunk) => sum + chunk.count, 0);
    options.onProgress?.(completed, rows);

    const limit = pLimit(threads);
    let failed = false;
    // The limited stage is only the worker's compute, so a worker gets its next
    // chunk before the main thread writes the previous chunk's checkpoint.
    await Promise.all(
      remaining.map((chunk) =>
        limit(() => (failed ? Promise.resolve(undefined) : pool.run(chunk))).then(
          (outcomes) => {
            if (!outcomes) return;
            checkpoints.save(chunk, outcomes, kind.outcomeColumns);
            done.set(chunk.index, outcomes);
            completed += chunk.count;
            options.onProgress?.(completed, rows);
          },
          (error: unknown) => {
            failed = true;
            limit.clearQueue();
            throw error;
          },
        ),
      ),
    );
  } finally {
    await pool.close();
  }

  const data = assembleResults(plan, kind, chunks, (chunk) => done.get(chunk.index) as ColumnData);
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
  return {
    outDirectory,
    resultsFile,
    runFile,
    rows,
    cells: plan.cells.length,
    resumedChunks,
    ranChunks,
    threads,
    wallSeconds,
    alreadyComplete: false,
  };
}

export type { Plan };

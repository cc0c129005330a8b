import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomic } from '../util/atomic-write.js';
import { describeFound, InputError } from '../util/errors.js';
import { sha256OfFile } from '../util/sha256.js';
import {
  CHECKPOINT_FILE_BYTES,
  Checkpoints,
  type CompletedChunk,
  describeProblems,
  type ResumeState,
} from './checkpoints.js';
import type { ExperimentConfig } from './config.js';
import type { KindRunner } from './kind-runner.js';
import { findKindRunner } from './kind-runners.js';
import { type LoadAverage, loadAverage, machine, processCpuSeconds } from './machine.js';
import { claimOutputFolder, type OutputFolder } from './output-folder.js';
import {
  buildPlan,
  type Plan,
  type PlanCell,
  type PlanChunk,
  probeCells,
  type Shard,
  shardChunks,
  shardSize,
} from './plan.js';
import { ResultsWriter } from './results-writer.js';
import { RunInterrupted } from './run-interrupted.js';
import {
  buildRunRecord,
  fairauditVersion,
  gitCommit,
  type RunRecord,
  readRunRecord,
  resultsArtifact,
} from './run-record.js';
import { type ChunkRunner, kindModuleFile, WorkerPool } from './worker-pool.js';

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
  /** Continue an interrupted run from its checkpoints (each verified: checksum, plan, seeds). */
  resume?: boolean;
  /** With resume: recompute the chunks found damaged or foreign (and a damaged results.arrow) instead of stopping. */
  repair?: boolean;
  /** Write into a folder that holds another experiment's results or checkpoints, replacing them. */
  force?: boolean;
  /** Who runs, in words, recorded in the folder's lock (default "fairaudit run <experiment>"). */
  command?: string;
  /**
   * Facts about this run that may differ between runs with equal results (a model read
   * from the cache or trained), recorded in run.json's provenance and nowhere else.
   */
  provenanceNotes?: Record<string, string>;
  /** Called with (replicates done, replicates in this run) as chunks complete. */
  onProgress?: (done: number, total: number) => void;
  /** Called with a notice for the user (a stale lock taken over), as it happens. */
  onNotice?: (notice: string) => void;
  /**
   * Aborting it stops the run: no new chunk starts, the completed ones are checkpointed,
   * the lock is released and RunInterrupted is thrown (the CLI aborts it on SIGTERM/SIGINT).
   */
  signal?: AbortSignal;
  /**
   * What runs the chunks (default: a pool of worker threads). Benchmarks pass one that
   * only makes payloads (`bench runner --dry`).
   */
  chunkRunner?: (plan: Plan, kind: KindRunner, threads: number) => ChunkRunner;
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
  /** What the user should know (a stale lock taken over). */
  notices: string[];
}

/** The default output folder of an experiment (or of one shard of it), relative to the working folder. */
export function defaultOutDirectory(experiment: string, shard?: Shard): string {
  const base = join('results', experiment);
  return shard ? join(base, `shard-${shard.index}-of-${shard.count}`) : base;
}

/** Stage 1 (plan): the kind, the plan, this run's size and where its files go. */
interface RunPlan {
  config: ExperimentConfig;
  kind: KindRunner;
  plan: Plan;
  shard: Shard | null;
  chunks: number;
  rows: number;
  written: Pick<RunSummary, 'outDirectory' | 'resultsFile' | 'runFile' | 'rows' | 'cells'>;
  provenanceNotes?: Record<string, string>;
}

/** Stage 3 (run): how many chunks came from checkpoints and how many ran now. */
interface ChunkOutcomes {
  resumedChunks: number;
  ranChunks: number;
  threads: number;
}

function planRun(config: ExperimentConfig, options: RunOptions): RunPlan {
  const kind = findKindRunner(config.kind) as KindRunner;
  const plan = buildPlan(config, kind);
  const outDirectory = options.outDirectory ?? defaultOutDirectory(config.experiment, options.shard);
  if (options.repair && !options.resume)
    throw new InputError('--repair: expected together with --resume (it repairs the checkpoints a resume finds)');
  const { chunks, rows } = shardSize(plan, options.shard);
  // Where the run's files are and how big it is: the same whether it runs now or was already done.
  const written = {
    outDirectory,
    resultsFile: join(outDirectory, 'results.arrow'),
    runFile: join(outDirectory, 'run.json'),
    rows,
    cells: plan.cellCount,
  };
  return {
    config,
    kind,
    plan,
    shard: options.shard ?? null,
    chunks,
    rows,
    written,
    provenanceNotes: options.provenanceNotes,
  };
}

/**
 * Stage 2: with --resume, a run whose run.json is for this plan and shard and whose
 * results.arrow has the SHA-256 run.json records is already complete. A results.arrow
 * that does not is refused (exit 2), or with --repair computed again.
 */
async function alreadyComplete(run: RunPlan, options: RunOptions, notices: string[]): Promise<RunSummary | null> {
  const { resultsFile, runFile, outDirectory } = run.written;
  if (!options.resume || !existsSync(resultsFile) || !existsSync(runFile)) return null;
  let previous: RunRecord;
  try {
    previous = readRunRecord(outDirectory);
  } catch (error) {
    if (error instanceof InputError) return null; // not a run of this fairaudit: run again
    throw error;
  }
  if (
    previous.plan.fingerprint !== run.plan.fingerprint ||
    JSON.stringify(previous.shard) !== JSON.stringify(run.shard)
  )
    return null;
  const recorded = resultsArtifact(previous);
  const sha256 = await sha256OfFile(resultsFile);
  if (sha256 !== recorded.sha256) {
    if (options.repair) return null;
    throw new InputError(
      `${resultsFile}: expected the SHA-256 ${runFile} records ` +
        `(${describeFound(recorded.sha256.slice(0, 16))}…), found ${sha256.slice(0, 16)}… (changed or damaged ` +
        `since the ` +
        `run); run with --resume --repair to compute it again`,
    );
  }
  new Checkpoints(outDirectory, run.plan, run.shard, run.kind.outcomeColumns).clear(); // left behind if the run was
  // killed after writing run.json
  return {
    ...run.written,
    resumedChunks: run.chunks,
    ranChunks: 0,
    threads: 0,
    wallSeconds: 0,
    alreadyComplete: true,
    notices,
  };
}

/** The worker pool of a run: its threads load the kind's module while the main thread reads the checkpoints. */
function startWorkers(run: RunPlan, threads: number): WorkerPool {
  return new WorkerPool(threads, {
    kind: run.kind.name,
    kindModule: kindModuleFile(run.kind),
    seed: run.plan.seed,
    origin: { configFile: run.config.file, baseDirectory: run.config.baseDirectory },
  });
}

/**
 * The checkpoints --resume takes: each chunk checked (checksum, plan, shard, columns,
 * seeds). Damaged or foreign ones stop the run with exit 2 naming the files, unless
 * --repair (they are then recomputed).
 */
function resumeCheckpoints(checkpoints: Checkpoints, options: RunOptions): ResumeState | undefined {
  if (!options.resume) return undefined;
  const state = checkpoints.resume();
  if (state === undefined || options.repair) return state;
  if (state.planProblem !== null) {
    throw new InputError(
      `${checkpoints.planFile}: expected the checkpoint plan of this run, found ${state.planProblem}; run with ` +
        `--resume --repair to check every chunk against this plan and rewrite it, or without --resume to start over`,
    );
  }
  if (state.problems.length > 0) {
    throw new InputError(
      `--resume: expected checkpoints of this plan, found ${state.problems.length} damaged or ` +
        `foreign: ${describeProblems(state.problems)}; run with --resume --repair to recompute exactly those ` +
        `chunks, or ` +
        `without --resume to start over`,
    );
  }
  return state;
}

/**
 * Completed chunks, checkpointed together at most every CHECKPOINT_INTERVAL_MS (or
 * once they reach CHECKPOINT_FILE_BYTES): on this machine creating a file costs
 * ~0.5 ms of main-thread CPU, a chunk ~35 ms of a worker's. A failed save stops the
 * run (onError) and is rethrown by rethrow(); flush() saves what is left.
 */
function checkpointBatcher(checkpoints: Checkpoints, isStopped: () => boolean, onError: () => void) {
  const unsaved: CompletedChunk[] = [];
  let unsavedBytes = 0;
  let lastSaved = 0;
  let timer: NodeJS.Timeout | undefined;
  let saveError: unknown;
  const save = () => {
    clearTimeout(timer);
    timer = undefined;
    if (isStopped()) return;
    try {
      checkpoints.save(unsaved.splice(0));
      unsavedBytes = 0;
    } catch (error) {
      saveError ??= error;
      onError();
    }
    lastSaved = Date.now();
  };
  return {
    add(completed: CompletedChunk): void {
      unsaved.push(completed);
      unsavedBytes += completed.payload.byteLength;
      const wait = lastSaved + CHECKPOINT_INTERVAL_MS - Date.now();
      if (wait <= 0 || unsavedBytes >= CHECKPOINT_FILE_BYTES) save();
      else timer ??= setTimeout(save, wait);
    },
    flush: save,
    cancel: () => clearTimeout(timer),
    rethrow(): void {
      if (saveError) throw saveError;
    },
  };
}

/**
 * Stage 3 (run): the chunks not resumed, at most size × depth in flight (two queued per
 * worker thread), after every context the run needs has been prepared (bad input
 * stops the run there, before anything is written); each completed chunk is
 * checkpointed. Chunks are drawn from the plan one at a time, so memory does not grow
 * with the plan. Returns once every chunk is in the checkpoints.
 */
async function runChunks(run: RunPlan, options: RunOptions, checkpoints: Checkpoints): Promise<ChunkOutcomes> {
  const resumed = resumeCheckpoints(checkpoints, options);
  const threads = Math.max(
    1,
    Math.min(options.threads ?? availableParallelism(), Math.max(1, run.chunks - (resumed?.done.size ?? 0))),
  );
  const runner = options.chunkRunner?.(run.plan, run.kind, threads) ?? startWorkers(run, threads);
  let failed = false;
  let firstError: unknown;
  const stop = (error: unknown) => {
    if (!failed) firstError = error;
    failed = true;
  };
  const batcher = checkpointBatcher(
    checkpoints,
    () => failed,
    () => stop(undefined),
  );
  try {
    const done = resumed?.done;
    let completed = resumed?.rows ?? 0;
    options.onProgress?.(completed, run.rows);
    const writable = checkContexts(run, runner, done).then(() => {
      if (resumed === undefined) checkpoints.start();
      else checkpoints.repair(resumed); // stray temporary files; with --repair, the damaged and foreign chunks
    });
    writable.catch(stop);
    let ran = 0;
    const pending = (function* () {
      for (const chunk of shardChunks(run.plan, run.shard)) if (!done?.has(chunk.index)) yield chunk;
    })();
    const limit = runner.size * runner.depth;
    const interrupted = () => options.signal?.aborted === true;
    await new Promise<void>((resolve) => {
      let inFlight = 0;
      // An interruption does not wait for the chunks in flight: their workers are closed below.
      options.signal?.addEventListener('abort', () => resolve(), { once: true });
      if (interrupted()) resolve();
      const launch = () => {
        while (!failed && !interrupted() && inFlight < limit) {
          const next = pending.next();
          if (next.done) break;
          const chunk: PlanChunk = next.value;
          let cell: PlanCell;
          try {
            cell = run.plan.cellAt(chunk.cell); // a cell of a large grid is validated here (InputError)
          } catch (error) {
            stop(error);
            break;
          }
          inFlight += 1;
          ran += 1;
          runner
            .run(chunk, cell)
            .then(async (payload) => {
              await writable;
              if (failed || interrupted()) return;
              batcher.add({ chunk, payload });
              completed += chunk.count;
              options.onProgress?.(completed, run.rows);
            })
            .catch(stop)
            .finally(() => {
              inFlight -= 1;
              launch();
            });
        }
        if (inFlight === 0) resolve();
      };
      launch();
    });
    await writable.catch(() => undefined);
    if (!failed) batcher.flush();
    batcher.rethrow();
    if (failed) throw firstError;
    if (interrupted()) throw new RunInterrupted(completed, run.rows, checkpoints.folder);
    return { resumedChunks: done?.size ?? 0, ranChunks: ran, threads: runner.size };
  } finally {
    batcher.cancel();
    await runner.close();
  }
}

/** Whether the shard still has a chunk of `cell` to run: O(1) without a resume, else until the first chunk not done. */
function cellHasWork(run: RunPlan, cell: number, done: ResumeState['done'] | undefined): boolean {
  const { plan, shard } = run;
  const start = cell * plan.chunksPerCell;
  const step = shard ? shard.count : 1;
  const first = shard ? start + ((((shard.index - 1 - start) % step) + step) % step) : start;
  for (let index = first; index < start + plan.chunksPerCell; index += step) {
    if (!done?.has(index)) return true;
  }
  return false;
}

/**
 * Every context the remaining chunks need, prepared once by a worker (one cell per
 * context key) before anything is written. Walks the plan's cells once (each validated
 * here, so a bad cell of a large grid stops the run before anything is written): O(cells)
 * time, memory O(distinct contexts). Chunks start at once; their checkpoints wait for
 * these checks.
 */
function checkContexts(run: RunPlan, runner: ChunkRunner, done: ResumeState['done'] | undefined): Promise<void> {
  const keys = new Set<string>();
  const checks: Promise<void>[] = [];
  try {
    for (let index = 0; index < run.plan.cellCount; index++) {
      if (!cellHasWork(run, index, done)) continue;
      const cell = run.plan.cellAt(index);
      const key = run.kind.contextKey(cell.settings);
      if (keys.has(key)) continue;
      keys.add(key);
      checks.push(runner.check(cell));
    }
  } catch (error) {
    checks.push(Promise.reject(error));
  }
  return Promise.all(checks).then(() => undefined);
}

/** When a run started: the clock, the process's CPU seconds and the load average then. */
interface RunStart {
  at: Date;
  cpuSeconds: number;
  loadAverage: LoadAverage;
}

/**
 * Stage 4 (write): results.arrow in canonical order, streamed from the checkpoints in
 * record batches (ResultsWriter), run.json with its SHA-256, the plan and the
 * provenance, then the checkpoints go.
 */
function writeResults(run: RunPlan, outcomes: ChunkOutcomes, started: RunStart, checkpoints: Checkpoints): number {
  const writer = new ResultsWriter(run.written.resultsFile, run.plan, run.kind);
  let written: ReturnType<ResultsWriter['close']>;
  try {
    for (const { chunk, decoded } of checkpoints.chunksInOrder()) {
      writer.append(run.plan.cellAt(chunk.cell), chunk.firstReplicate, chunk.count, decoded.seeds, decoded.columns);
    }
    written = writer.close();
  } catch (error) {
    writer.abort();
    throw error;
  }
  const finished = new Date();
  const wallSeconds = (finished.getTime() - started.at.getTime()) / 1000;
  const artifacts = [
    {
      file: 'results.arrow',
      sha256: written.sha256,
      bytes: written.bytes,
      rows: written.rows,
      batches: written.batches,
    },
  ];
  const record = buildRunRecord(run.config, run.plan, run.kind, run.shard, run.rows, artifacts, {
    fairauditVersion: fairauditVersion(),
    nodeVersion: process.version,
    gitCommit: gitCommit(),
    masterSeed: run.plan.seed,
    threads: outcomes.threads,
    shard: run.shard,
    wallSeconds,
    cpuSeconds: processCpuSeconds() - started.cpuSeconds,
    machine: machine(),
    loadAverage: { started: started.loadAverage, finished: loadAverage() },
    startedAt: started.at.toISOString(),
    finishedAt: finished.toISOString(),
    resumedChunks: outcomes.resumedChunks,
    ranChunks: outcomes.ranChunks,
    ...(run.provenanceNotes === undefined ? {} : { notes: run.provenanceNotes }),
  });
  writeFileAtomic(run.written.runFile, `${JSON.stringify(record, null, 2)}\n`);
  checkpoints.clear();
  return wallSeconds;
}

/**
 * runExperiment(config, options) runs a validated experiment in named stages:
 * plan (the kind's plan, this shard's size; O(grid axes)) → claim the output folder
 * (its lock, before anything is deleted or written; another experiment's folder only
 * with force) → already complete? (with --resume) → run (the chunks on a pool of
 * worker threads, two chunks queued per thread, after a worker has prepared every
 * context the run needs: bad input stops the run there, before anything is written;
 * each completed chunk checkpointed atomically with its checksum; with --resume the
 * checkpoints are verified first) → write (results.arrow streamed from the checkpoints
 * in batches of 65,536 rows, rows in canonical order: the same plan gives the same
 * bytes whatever the threads, shards or interruptions; run.json with config, plan,
 * SHA-256 and provenance; then the checkpoints are removed).
 * Memory: O(grid axes + distinct contexts + one batch + chunks / 8 bits when resuming).
 * Throws InputError for bad input (exit 2); the output folder is then as it was.
 * @param config the validated config (loadConfig, configFromObject)
 * @param options threads, output folder, shard, resume, progress
 * @returns where the results went and how long it took
 * @example
 * const summary = await runExperiment(loadConfig('configs/quickstart.yaml'), { threads: 2 });
 */
export async function runExperiment(config: ExperimentConfig, options: RunOptions = {}): Promise<RunSummary> {
  const started: RunStart = { at: new Date(), cpuSeconds: processCpuSeconds(), loadAverage: loadAverage() };
  const run = planRun(config, options);
  const folder: OutputFolder = claimOutputFolder(run.written.outDirectory, {
    experiment: config.experiment,
    fingerprint: run.plan.fingerprint,
    command: options.command ?? `fairaudit run ${config.file}`,
    force: options.force,
  });
  const notices: string[] = [];
  if (folder.lock.notice !== undefined) {
    notices.push(folder.lock.notice);
    options.onNotice?.(folder.lock.notice);
  }
  let failed = true;
  try {
    const complete = await alreadyComplete(run, options, notices);
    if (complete) {
      failed = false;
      return complete;
    }
    // A kind may fill its caches first (calibrations on worker threads); a cell it did not
    // see (grids beyond EAGER_CELL_LIMIT cells pass probe cells) computes its own in its worker.
    if (run.kind.beforeRun !== undefined) {
      const probes = probeCells(config).map((index) => run.plan.cellAt(index).settings);
      await run.kind.beforeRun(
        probes,
        { configFile: config.file, baseDirectory: config.baseDirectory },
        { threads: options.threads, onNotice: options.onNotice },
      );
    }
    const checkpoints = new Checkpoints(
      run.written.outDirectory,
      run.plan,
      run.shard,
      run.kind.outcomeColumns,
      run.kind.rowProblem,
    );
    const outcomes = await runChunks(run, options, checkpoints);
    const wallSeconds = writeResults(run, outcomes, started, checkpoints);
    folder.removeReplacedReport();
    failed = false;
    return { ...run.written, ...outcomes, wallSeconds, alreadyComplete: false, notices };
  } finally {
    folder.release(failed);
  }
}

export type { Plan };

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../util/paths.js';
import { configFromObject, type ExperimentConfig, loadConfig, parseOverride } from './config.js';
import { runExperiment } from './run-experiment.js';

/**
 * bench runner's replicates per timed run: enough that the fixed start-up (a quarter to a
 * third of a second here) is a few percent of the one-thread run, so that the two-thread
 * speedup measures scaling rather than start-up.
 */
export const DEFAULT_RUNNER_REPLICATES = 200_000;

/** One timed run of the runner. */
export interface RunnerTiming {
  threads: number;
  replicates: number;
  seconds: number;
  replicatesPerSecond: number;
  /** CPU seconds used by the whole process (all threads) during the run: shows how much of the machine it got. */
  cpuSeconds: number;
}

/** The figures of `fairaudit bench runner`. */
export interface RunnerBenchmark {
  /** The audited cell (a synthetic pool, SP, decision access), the replicates, and the start-up share. */
  workload: string;
  /**
   * A 200-replicate run at two threads (two chunks, one per worker): nearly all of it is
   * the fixed cost every timed run pays (worker start-up, pool generation, files). Also
   * the warm-up that puts the compiled modules in the OS cache.
   */
  startup: RunnerTiming;
  oneThread: RunnerTiming;
  twoThreads: RunnerTiming;
  /** twoThreads.replicatesPerSecond / oneThread.replicatesPerSecond (the bar is ≥ 1.8). */
  speedup: number;
  /**
   * 2 × oneThread.cpuSeconds / twoThreads.cpuSeconds: the speedup two threads would
   * show on two otherwise idle cores, projected from the CPU each run used. A
   * projection for a shared machine, not a measurement.
   */
  projectedSpeedup: number;
  /** The quickstart grid with replicates raised to at least 10,000 in total (the bar is < 30 s). */
  quickstart: RunnerTiming;
  /**
   * The quickstart grid with one replicate a cell at two threads: its fixed cost (each worker
   * starts, loads the kind, prepares every cell's pool and audit; results.arrow and run.json
   * are written), which every worker pays in full however many replicates follow; the rest
   * of the quickstart's seconds is its replicates (the compiler's warm-up included).
   */
  quickstartFixedCost: RunnerTiming;
}

async function timeRun(config: ExperimentConfig, threads: number): Promise<RunnerTiming> {
  const folder = mkdtempSync(join(tmpdir(), 'fairaudit-bench-'));
  try {
    const started = process.hrtime.bigint();
    const cpuBefore = process.cpuUsage();
    const summary = await runExperiment(config, { threads, outDirectory: folder });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const cpu = process.cpuUsage(cpuBefore);
    return {
      threads,
      replicates: summary.rows,
      seconds,
      replicatesPerSecond: summary.rows / seconds,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
    };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/**
 * benchmarkRunner(replicates) times whole runs (worker start-up, pool generation,
 * audits, checkpoints and the Arrow file included) of `replicates` sequential audits
 * of one synthetic cell (20,000 rows, SP gap 0.02 against δ = 0.05, decision access,
 * B = 4000) at one and at two worker threads, then the
 * quickstart grid with at least 10,000 replicates at two threads, and with one replicate a
 * cell (its fixed cost). The speedup is that
 * of whole runs, so the fixed start-up cost (timed separately by a 200-replicate run)
 * counts against it (the workload line gives its share of the one-thread run).
 * Wall-clock figures: provisional on a shared machine.
 */
export async function benchmarkRunner(replicates = DEFAULT_RUNNER_REPLICATES): Promise<RunnerBenchmark> {
  const workload = {
    experiment: 'bench-runner',
    kind: 'sequential-audit',
    seed: 1,
    replicates,
    chunkSize: 100,
    settings: {
      pool: {
        name: 'bench',
        synthetic: { size: 20000, groupShare: 0.4, labelRate: [0.45, 0.4], decisionRate: [0.4, 0.38] },
      },
      metric: 'sp',
      access: 'decision',
      tolerance: 0.05,
      budget: 4000,
    },
  };
  const config = configFromObject(workload, 'bench-runner');
  // A short run first: it times the fixed cost, and both timed runs then find the compiled modules in the OS cache.
  const startup = await timeRun(configFromObject({ ...workload, replicates: 200 }, 'bench-runner (start-up)'), 2);
  const oneThread = await timeRun(config, 1);
  const twoThreads = await timeRun(config, 2);
  const quickstartFile = join(packageRoot(), 'configs', 'quickstart.yaml');
  const cells = loadConfig(quickstartFile).cellCount;
  const quickstart = await timeRun(
    loadConfig(quickstartFile, [parseOverride(`replicates=${Math.ceil(10_000 / cells)}`)]),
    2,
  );
  const quickstartFixedCost = await timeRun(loadConfig(quickstartFile, [parseOverride('replicates=1')]), 2);
  return {
    workload:
      `${replicates} replicates of one synthetic cell (20,000 rows, SP gap 0.02 vs δ = 0.05, decision access, B ` +
      `= 4000, chunks of 100), ` +
      `whole runs timed; fixed start-up (a 200-replicate run at 2 threads) ${startup.seconds.toFixed(2)} s = ` +
      `${((100 * startup.seconds) / oneThread.seconds).toFixed(0)}% of the 1-thread run`,
    startup,
    oneThread,
    twoThreads,
    speedup: twoThreads.replicatesPerSecond / oneThread.replicatesPerSecond,
    projectedSpeedup: (2 * oneThread.cpuSeconds) / twoThreads.cpuSeconds,
    quickstart,
    quickstartFixedCost,
  };
}

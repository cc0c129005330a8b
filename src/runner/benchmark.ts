import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { packageRoot } from '../util/paths.js';
import { loadConfig, parseConfig, parseOverride } from './config.js';
import { runExperiment } from './run-experiment.js';

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
  /** The audited cell: a synthetic pool, SP, decision access. */
  workload: string;
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
}

async function timeRun(text: string, label: string, threads: number, overrides: string[] = []): Promise<RunnerTiming> {
  const folder = mkdtempSync(join(tmpdir(), 'fairaudit-bench-'));
  try {
    const config = label.endsWith('.yaml') ? loadConfig(label, overrides.map(parseOverride)) : parseConfig(text, label, overrides.map(parseOverride));
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
 * B = 4000) at one and at two worker threads, then the quickstart grid with at least
 * 10,000 replicates at two threads. Wall-clock figures: provisional on a shared machine.
 */
export async function benchmarkRunner(replicates = 8000): Promise<RunnerBenchmark> {
  const workload = {
    experiment: 'bench-runner',
    kind: 'sequential-audit',
    seed: 1,
    replicates,
    chunkSize: 100,
    settings: {
      pool: { name: 'bench', synthetic: { size: 20000, groupShare: 0.4, labelRate: [0.45, 0.4], decisionRate: [0.4, 0.38] } },
      metric: 'sp',
      access: 'decision',
      tolerance: 0.05,
      budget: 4000,
    },
  };
  const text = stringify(workload);
  // A short warm-up run so that both timed runs find the compiled modules in the OS cache.
  await timeRun(stringify({ ...workload, replicates: 200 }), 'bench-runner (warm-up)', 1);
  const oneThread = await timeRun(text, 'bench-runner', 1);
  const twoThreads = await timeRun(text, 'bench-runner', 2);
  const quickstartFile = join(packageRoot(), 'configs', 'quickstart.yaml');
  const cells = loadConfig(quickstartFile).cells.length;
  const quickstart = await timeRun('', quickstartFile, 2, [`replicates=${Math.ceil(10_000 / cells)}`]);
  return {
    workload: `${replicates} replicates of one synthetic cell: 20,000 rows, SP gap 0.02 vs δ = 0.05, decision access, B = 4000`,
    oneThread,
    twoThreads,
    speedup: twoThreads.replicatesPerSecond / oneThread.replicatesPerSecond,
    projectedSpeedup: (2 * oneThread.cpuSeconds) / twoThreads.cpuSeconds,
    quickstart,
  };
}

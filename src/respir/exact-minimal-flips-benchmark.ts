import { compiledModule } from '../util/paths.js';
import { ThreadPool } from '../util/thread-pool.js';
import { type ExactCostSetting, exactManipulationCost } from './exact-manipulation-cost.js';

/** One setting of the benchmark: a label and what exactManipulationCost needs. */
export interface ExactMinimumWorkloadRow {
  label: string;
  setting: ExactCostSetting;
}

/** The figures of one row of the exact-minimum benchmark. */
export interface ExactMinimumBenchmarkRow {
  label: string;
  flips: number | null;
  lowerBound: number | null;
  upperBound: number | null;
  exact: boolean;
  evaluations: number;
  seconds: number;
}

/** The figures of the exact-minimum row of `fairaudit bench respir`. */
export interface ExactMinimumBenchmark {
  rows: ExactMinimumBenchmarkRow[];
  /** Worker threads the rows were spread over (1: the calling thread). */
  threads: number;
  /** Wall-clock seconds for all rows (the bar: under 10 s for paper B's seven Table 2 rows). */
  seconds: number;
  /** CPU seconds of this process meanwhile, all threads (steadier than wall time on a shared machine). */
  cpuSeconds: number;
}

/** Options of benchmarkExactMinimalFlips. */
export interface ExactMinimumBenchmarkOptions {
  maxEvaluations?: number;
  /** Worker threads (default 1: the calling thread); more needs the compiled dist/. */
  threads?: number;
}

/**
 * exactMinimumBenchmarkRow(row, maxEvaluations) computes and times one row on the
 * calling thread (the worker threads call it too). Throws InputError on a bad row.
 */
export function exactMinimumBenchmarkRow(
  row: ExactMinimumWorkloadRow,
  maxEvaluations?: number,
): ExactMinimumBenchmarkRow {
  const started = process.hrtime.bigint();
  const { respir } = exactManipulationCost(row.setting, undefined, { maxEvaluations });
  return {
    label: row.label,
    flips: respir.flips,
    lowerBound: respir.lowerBound,
    upperBound: respir.upperBound,
    exact: respir.exact,
    evaluations: respir.evaluations,
    seconds: Number(process.hrtime.bigint() - started) / 1e9,
  };
}

/**
 * Rows in the order the workers should take them: the costliest first (longest
 * processing time first), estimated by 1/(ε·√n_min): a tolerance small against the
 * sampling noise of d_S makes the strongest adversary thin positives over many
 * evaluations (CCD marriage and HateDay in paper B's Table 2). O(rows log rows).
 */
function costliestFirst(rows: readonly ExactMinimumWorkloadRow[]): number[] {
  const estimate = (row: ExactMinimumWorkloadRow) =>
    1 / (Math.max(row.setting.tolerance, 1e-9) * Math.sqrt(row.setting.auditMinoritySize));
  return rows.map((_, index) => index).sort((a, b) => estimate(rows[b]) - estimate(rows[a]));
}

/** What a worker of the exact-minimum benchmark is sent: one row and the evaluation budget. */
export interface ExactMinimumJob {
  readonly row: ExactMinimumWorkloadRow;
  readonly maxEvaluations?: number;
}

/** Spreads the rows over `threads` workers (a ThreadPool), the costliest queued first, each worker taking the next row
 * when it is free. */
async function computeOnWorkers(
  rows: readonly ExactMinimumWorkloadRow[],
  threads: number,
  maxEvaluations?: number,
): Promise<ExactMinimumBenchmarkRow[]> {
  const results: ExactMinimumBenchmarkRow[] = new Array(rows.length);
  const pool = new ThreadPool<ExactMinimumJob, ExactMinimumBenchmarkRow>(
    compiledModule('respir/exact-minimal-flips-worker.js'),
    { size: Math.min(threads, rows.length), name: 'exact minimum worker' },
  );
  try {
    await Promise.all(
      costliestFirst(rows).map(async (index) => {
        const context = `exact minimum worker failed on ${rows[index].label}`;
        results[index] = await pool.run({ row: rows[index], maxEvaluations }, { context });
      }),
    );
  } finally {
    await pool.close();
  }
  return results;
}

/**
 * benchmarkExactMinimalFlips(rows, options) computes the exact minimal flips
 * (exactManipulationCost: respir with its design, vanilla on S) for every row and times
 * each and all: on the calling thread, or spread over `threads` worker threads (the
 * costliest rows first, each worker taking the next row when free; the results do not
 * depend on the thread count, the computation is exact). Wall-clock figures: provisional
 * on a shared machine. Throws InputError on a bad row.
 */
export async function benchmarkExactMinimalFlips(
  rows: readonly ExactMinimumWorkloadRow[],
  options: ExactMinimumBenchmarkOptions = {},
): Promise<ExactMinimumBenchmark> {
  const threads = Math.max(1, Math.floor(options.threads ?? 1));
  const started = process.hrtime.bigint();
  const cpuBefore = process.cpuUsage();
  const results =
    threads > 1
      ? await computeOnWorkers(rows, threads, options.maxEvaluations)
      : rows.map((row) => exactMinimumBenchmarkRow(row, options.maxEvaluations));
  const cpu = process.cpuUsage(cpuBefore);
  return {
    rows: results,
    threads,
    seconds: Number(process.hrtime.bigint() - started) / 1e9,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
  };
}

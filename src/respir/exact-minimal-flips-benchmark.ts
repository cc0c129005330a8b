import { type ExactCostSetting, type ExactManipulationCost, exactManipulationCost } from './exact-manipulation-cost.js';

/** One setting of the benchmark: a label and what exactManipulationCost needs. */
export interface ExactMinimumWorkloadRow {
  label: string;
  setting: ExactCostSetting;
}

/** The figures of the exact-minimum row of `fairaudit bench respir`. */
export interface ExactMinimumBenchmark {
  rows: Array<{
    label: string;
    flips: number | null;
    lowerBound: number | null;
    upperBound: number | null;
    exact: boolean;
    evaluations: number;
    seconds: number;
  }>;
  /** Wall-clock seconds for all rows (the bar: under 10 s for paper B's seven Table 2 rows). */
  seconds: number;
  /** CPU seconds of this process meanwhile (steadier than wall time on a shared machine). */
  cpuSeconds: number;
}

/**
 * benchmarkExactMinimalFlips(rows, maxEvaluations) computes the exact minimal flips
 * (exactManipulationCost: respir with its design, vanilla on S) for every row, one after
 * the other on the calling thread, and times each and all. Wall-clock figures: provisional
 * on a shared machine. Throws InputError on a bad row.
 */
export function benchmarkExactMinimalFlips(rows: readonly ExactMinimumWorkloadRow[], maxEvaluations?: number): ExactMinimumBenchmark {
  const started = process.hrtime.bigint();
  const cpuBefore = process.cpuUsage();
  const results = rows.map((row) => {
    const rowStarted = process.hrtime.bigint();
    const cost: ExactManipulationCost = exactManipulationCost(row.setting, undefined, { maxEvaluations });
    const seconds = Number(process.hrtime.bigint() - rowStarted) / 1e9;
    const respir = cost.respir;
    return {
      label: row.label,
      flips: respir.flips,
      lowerBound: respir.lowerBound,
      upperBound: respir.upperBound,
      exact: respir.exact,
      evaluations: respir.evaluations,
      seconds,
    };
  });
  const cpu = process.cpuUsage(cpuBefore);
  return { rows: results, seconds: Number(process.hrtime.bigint() - started) / 1e9, cpuSeconds: (cpu.user + cpu.system) / 1e6 };
}

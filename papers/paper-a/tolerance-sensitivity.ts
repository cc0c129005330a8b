import type { CellSummary } from '../../src/report/cell-results.js';
import type { ChartSpec } from '../../src/report/charts/chart-spec.js';
import { type LineDatum, lineChartSpec } from '../../src/report/charts/line-chart.js';
import { PAPER_A_BASE_POOLS } from './pools.js';

/** The operational tolerances the sensitivity runs sweep (papers/paper-a/configs/*-tolerance.yaml). */
export const SENSITIVITY_ACCESS = {
  score: { setting: 'scoreTolerance', title: 'Score-space tolerance', defaultValue: 0.05 },
  logit: { setting: 'logitTolerance', title: 'Logit-space tolerance', defaultValue: 0.2 },
} as const;

/**
 * toleranceSensitivityCharts(access, summaries, notice?) plots, over the swept
 * operational tolerance of one access regime, for each base model and metric:
 * mean queries, and the frequencies of reject and of inconclusive outcomes, each with
 * a band of ± one Monte Carlo standard error (std/√n for the mean, √(p(1−p)/n) for
 * a frequency).
 * The default tolerance (δ for scores, 4δ for logits) is named in the subtitle.
 * O(cells).
 */
export function toleranceSensitivityCharts(
  access: 'score' | 'logit',
  summaries: CellSummary[],
  notice?: string,
): ChartSpec[] {
  const { setting, title, defaultValue } = SENSITIVITY_ACCESS[access];
  const queries: LineDatum[] = [];
  const rejects: LineDatum[] = [];
  const inconclusive: LineDatum[] = [];
  for (const summary of summaries) {
    const pool = PAPER_A_BASE_POOLS.find((entry) => entry.name === summary.settings.pool);
    const tolerance = Number(summary.settings[setting]);
    if (pool === undefined || !Number.isFinite(tolerance) || summary.settings.access !== access) continue;
    const series = `${pool.datasetLabel} ${pool.modelLabel}`;
    const panel = String(summary.settings.metric).toUpperCase();
    const point = (value: string, floor: number, ceiling: number): LineDatum => {
      const mean = Number(summary.values[value]);
      const se = Number(summary.values[`${value}_se`]);
      const spread = Number.isFinite(se) ? se : 0;
      return {
        x: tolerance,
        series,
        panel,
        value: mean,
        lower: Math.max(floor, mean - spread),
        upper: Math.min(ceiling, mean + spread),
      };
    };
    queries.push(point('queries_mean', 0, Number.POSITIVE_INFINITY));
    rejects.push(point('frequency_reject', 0, 1));
    inconclusive.push(point('frequency_inconclusive', 0, 1));
  }
  const byX = (a: LineDatum, b: LineDatum) =>
    (a.panel ?? '').localeCompare(b.panel ?? '') || (a.series ?? '').localeCompare(b.series ?? '') || a.x - b.x;
  const subtitle = `${notice ? `${notice} ` : ''}Default ${setting} = ${defaultValue}.`;
  const common = { xTitle: title, seriesTitle: 'Pool', panelTitle: 'Metric', subtitle };
  return [
    {
      id: `paper-a-${access}-tolerance-queries`,
      title: `Queries vs ${title.toLowerCase()} (${access} access)`,
      caption:
        `Mean queries to termination as the ${access}-space operational tolerance varies (the paper does ` +
        `not state it); band: ± one Monte Carlo standard error of the mean (std/√n; the std itself is in the ` +
        `summary table).`,
      spec: lineChartSpec(queries.sort(byX), {
        ...common,
        band: true,
        title: `Queries vs ${title.toLowerCase()}`,
        valueTitle: 'Mean queries to termination',
      }),
    },
    {
      id: `paper-a-${access}-tolerance-reject`,
      title: `Reject frequency vs ${title.toLowerCase()} (${access} access)`,
      caption: 'Fraction of replicates that reject the proxy null |μa − μb| ≤ τ; band: ± one binomial standard error.',
      spec: lineChartSpec(rejects.sort(byX), {
        ...common,
        band: true,
        title: `Reject frequency vs ${title.toLowerCase()}`,
        valueTitle: 'Reject frequency',
        valueDomain: [0, 1],
      }),
    },
    {
      id: `paper-a-${access}-tolerance-inconclusive`,
      title: `Inconclusive frequency vs ${title.toLowerCase()} (${access} access)`,
      caption:
        'Fraction of replicates that cross neither threshold within min(B, pool); band: ± one binomial standard error.',
      spec: lineChartSpec(inconclusive.sort(byX), {
        ...common,
        band: true,
        title: `Inconclusive frequency vs ${title.toLowerCase()}`,
        valueTitle: 'Inconclusive frequency',
        valueDomain: [0, 1],
      }),
    },
  ];
}

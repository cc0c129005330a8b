import type { CellSummary } from '../../src/report/cell-results.js';
import type { ChartSpec } from '../../src/report/charts/chart-spec.js';
import { type LineDatum, lineChartSpec } from '../../src/report/charts/line-chart.js';
import { PAPER_A_BASE_POOLS } from './pools.js';

/** The operational tolerances the sensitivity runs sweep (configs/paper-a/*-tolerance.yaml). */
export const SENSITIVITY_ACCESS = {
  score: { setting: 'scoreTolerance', title: 'Score-space tolerance', defaultValue: 0.05 },
  logit: { setting: 'logitTolerance', title: 'Logit-space tolerance', defaultValue: 0.2 },
} as const;

/**
 * toleranceSensitivityCharts(access, summaries, notice?) plots, over the swept
 * operational tolerance of one access regime, for each base model and metric:
 * mean queries, and the frequencies of reject and of inconclusive outcomes.
 * The default tolerance (δ for scores, 4δ for logits) is named in the subtitle.
 * O(cells).
 */
export function toleranceSensitivityCharts(access: 'score' | 'logit', summaries: CellSummary[], notice?: string): ChartSpec[] {
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
    const mean = Number(summary.values.queries_mean);
    const std = Number(summary.values.queries_std);
    queries.push({ x: tolerance, series, panel, value: mean, lower: Math.max(0, mean - (Number.isFinite(std) ? std : 0)), upper: mean + (Number.isFinite(std) ? std : 0) });
    rejects.push({ x: tolerance, series, panel, value: Number(summary.values.frequency_reject) });
    inconclusive.push({ x: tolerance, series, panel, value: Number(summary.values.frequency_inconclusive) });
  }
  const byX = (a: LineDatum, b: LineDatum) => (a.panel ?? '').localeCompare(b.panel ?? '') || (a.series ?? '').localeCompare(b.series ?? '') || a.x - b.x;
  const subtitle = `${notice ? `${notice} ` : ''}Default ${setting} = ${defaultValue}.`;
  const common = { xTitle: title, seriesTitle: 'Pool', panelTitle: 'Metric', subtitle };
  return [
    {
      id: `paper-a-${access}-tolerance-queries`,
      title: `Queries vs ${title.toLowerCase()} (${access} access)`,
      caption: `Mean queries to termination as the ${access}-space operational tolerance varies (the paper does not state it); the summary table has the std and the Monte Carlo error.`,
      // No ± band: with a band the line chart loses its legend in this Vega-Lite set-up, and
      // one-std bands of ±1500 queries overlap into a blur; the std is in summary.md.
      spec: lineChartSpec(queries.sort(byX), { ...common, title: `Queries vs ${title.toLowerCase()}`, valueTitle: 'Mean queries to termination' }),
    },
    {
      id: `paper-a-${access}-tolerance-reject`,
      title: `Reject frequency vs ${title.toLowerCase()} (${access} access)`,
      caption: 'Fraction of replicates that reject the proxy null |μa − μb| ≤ τ.',
      spec: lineChartSpec(rejects.sort(byX), { ...common, title: `Reject frequency vs ${title.toLowerCase()}`, valueTitle: 'Reject frequency', valueDomain: [0, 1] }),
    },
    {
      id: `paper-a-${access}-tolerance-inconclusive`,
      title: `Inconclusive frequency vs ${title.toLowerCase()} (${access} access)`,
      caption: 'Fraction of replicates that cross neither threshold within min(B, pool).',
      spec: lineChartSpec(inconclusive.sort(byX), {
        ...common,
        title: `Inconclusive frequency vs ${title.toLowerCase()}`,
        valueTitle: 'Inconclusive frequency',
        valueDomain: [0, 1],
      }),
    },
  ];
}

import { type BarDatum, barChartSpec } from '../../../src/report/charts/bar-chart.js';
import type { ChartSpec } from '../../../src/report/charts/chart-spec.js';
import type { PaperLayout, PaperLayoutParts } from '../../../src/report/paper-layout.js';
import type { SummaryTable } from '../../../src/report/summary-table.js';
import { inputError } from '../../../src/util/errors.js';
import { ERROR_CONTROL_EXPERIMENT } from './config.js';
import { errorControlTable, type StudyPoolLabel } from './table.js';

/** What reproduce error-control writes to report-layout.json: the pools' labels and a notice. */
export interface ErrorControlLayoutOptions {
  readonly pools: readonly StudyPoolLabel[];
  readonly notice: string | null;
}

function parseOptions(options: Record<string, unknown>, where: string): ErrorControlLayoutOptions {
  if (!Array.isArray(options.pools))
    throw inputError({
      where: `${where}: options.pools`,
      expected: 'a list of pools (name, label, data)',
      found: options.pools,
    });
  const pools = options.pools.map((entry, index) => {
    const pool = entry as Record<string, unknown>;
    if (typeof pool?.name !== 'string' || typeof pool.label !== 'string' || typeof pool.data !== 'string') {
      throw inputError({
        where: `${where}: options.pools[${index}]`,
        expected: 'strings name, label and data',
        found: entry,
      });
    }
    return { name: pool.name, label: pool.label, data: pool.data };
  });
  return { pools, notice: typeof options.notice === 'string' ? options.notice : null };
}

/** One bar chart of a column of the table: pools on x, tests side by side, a panel per metric and access regime. */
function tableChart(
  table: SummaryTable,
  column: string,
  errorColumn: string | null,
  id: string,
  title: string,
  valueTitle: string,
  caption: string,
  reference?: { value: number; label: string },
): ChartSpec {
  const data: BarDatum[] = [];
  for (const row of table.rows) {
    const value = row[column];
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      // A cell that was not run (or has no value) is said so, not drawn as a zero bar.
      data.push({
        category: String(row.pool),
        series: String(row.test),
        panel: `${row.metric} · ${row.access}`,
        value: 0,
        note: 'not run',
      });
      continue;
    }
    const error = errorColumn === null ? Number.NaN : Number(row[errorColumn]);
    data.push({
      category: String(row.pool),
      series: String(row.test),
      panel: `${row.metric} · ${row.access}`,
      value,
      ...(Number.isFinite(error) ? { lower: Math.max(0, value - error), upper: value + error } : {}),
    });
  }
  const spec = barChartSpec(data, {
    title,
    categoryTitle: 'Pool',
    valueTitle,
    seriesTitle: 'Test',
    panelTitle: 'Metric · access',
    errorBars: errorColumn !== null,
    independentPanels: true,
    ...(reference === undefined ? {} : { reference }),
  });
  return { id, title, caption, spec };
}

/**
 * The layout of results/error-control: the error-control table (errorControlTable) and
 * three charts of it (worst false-violation rate, false-compliance rate at the tolerance,
 * mean queries at the pool's own gap, per pool, test, metric and access regime), with a
 * notice that the calibrated pools are paper A's compositions, not reproductions.
 */
export const errorControlLayout: PaperLayout = {
  name: 'error-control',
  experiments: [ERROR_CONTROL_EXPERIMENT],
  build(input): PaperLayoutParts {
    const options = parseOptions(input.options, `${input.directory}/report-layout.json`);
    const table = errorControlTable(input.summaries, options.pools);
    const settings = (input.config?.settings ?? {}) as { alpha?: unknown; beta?: unknown };
    const errorRates = {
      alpha: typeof settings.alpha === 'number' ? settings.alpha : 0.05,
      beta: typeof settings.beta === 'number' ? settings.beta : 0.2,
    };
    return {
      description: 'Beyond paper A: error-controlled tests.',
      notices: options.notice === null ? [] : [options.notice],
      tables: [table],
      charts: [
        tableChart(
          table,
          'worst_false_violation',
          'worst_false_violation_se',
          'worst-false-violation',
          'Worst false-violation rate over compliant gaps',
          'P(reject) at the worst compliant gap',
          "Largest P(reject) over gaps 0, half the tolerance and the tolerance (and the pool's own gap when " +
            'compliant); error bars ±1 Monte Carlo standard error. The new tests keep it below α = 0.05 (dashed line).',
          { value: errorRates.alpha, label: `α = ${errorRates.alpha}` },
        ),
        tableChart(
          table,
          'false_compliance_at_tolerance',
          'false_compliance_at_tolerance_se',
          'false-compliance-at-tolerance',
          'False-compliance rate at the tolerance',
          'P(accept) at |gap| = tolerance',
          "P(accept) with the gap moved to the tolerance, on the side of the pool's own gap; error bars ±1 Monte " +
            'Carlo standard error. The new tests keep it below β = 0.2 (dashed line).',
          { value: errorRates.beta, label: `β = ${errorRates.beta}` },
        ),
        tableChart(
          table,
          'queries_at_own_gap',
          null,
          'queries-at-own-gap',
          "Mean queries at the pool's own gap",
          'Mean queries',
          "What each test costs on the pool as it is (Table 1's gap for calibrated pools).",
        ),
      ],
    };
  },
};

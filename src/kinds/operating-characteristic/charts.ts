import type { CellSummary } from '../../report/cell-results.js';
import type { ChartSpec } from '../../report/charts/chart-spec.js';
import { type LineDatum, lineChartSpec } from '../../report/charts/line-chart.js';
import { settingTitle } from '../../report/charts/setting-names.js';

const decisions = ['reject', 'accept', 'inconclusive'] as const;

/** The tolerance the cell's test tests its gap against (δ, or the proxy tolerance of score and logit access). */
function toleranceOf(summary: CellSummary): number {
  const { access, tolerance, scoreTolerance, logitTolerance } = summary.settings;
  const value = access === 'score' ? scoreTolerance : access === 'logit' ? logitTolerance : tolerance;
  return typeof value === 'number' ? value : Number.NaN;
}

function number(value: unknown): number {
  return typeof value === 'number' ? value : Number.NaN;
}

/**
 * operatingCharacteristicCharts(summaries, varyingSettings, experiment) draws the
 * operating characteristic of each series of cells (a series: the cells that differ only
 * in `gap`, labelled by their other varying settings, the test first): P(reject),
 * P(accept) and P(inconclusive) over the true gap, one panel each, with ±1 Monte Carlo
 * standard error bands and dashed lines at ±the tolerance, and the expected sample size
 * (mean queries ±1 standard error) over the true gap. O(cells).
 */
export function operatingCharacteristicCharts(
  summaries: CellSummary[],
  varyingSettings: string[],
  experiment: string,
): ChartSpec[] {
  if (summaries.length === 0) return [];
  const seriesKeys = varyingSettings.filter(
    (key) => key !== 'gap' && new Set(summaries.map((s) => String(s.settings[key]))).size > 1,
  );
  const seriesOf = (summary: CellSummary): string | undefined => {
    const parts = seriesKeys.map((key) =>
      seriesKeys.length === 1 ? String(summary.settings[key]) : `${key}=${String(summary.settings[key])}`,
    );
    if (!seriesKeys.includes('test')) parts.unshift(String(summary.values.test_name));
    return parts.join(', ');
  };
  const tolerances = [...new Set(summaries.map(toleranceOf).filter(Number.isFinite))];
  const xRules = tolerances.length === 1 ? [-tolerances[0], tolerances[0]] : [];
  const toleranceText =
    tolerances.length === 1
      ? `dashed lines at ±${tolerances[0]} (the tolerance)`
      : 'the tolerance differs between series';
  const seriesTitle =
    seriesKeys.length === 0
      ? 'Test'
      : ['test', ...seriesKeys.filter((key) => key !== 'test')].map(settingTitle).join(', ');
  const point = (summary: CellSummary, column: string, seColumn: string, panel?: string): LineDatum => {
    const value = number(summary.values[column]);
    const se = number(summary.values[seColumn]);
    return {
      x: number(summary.values.true_gap),
      series: seriesOf(summary),
      ...(panel === undefined ? {} : { panel }),
      value,
      ...(Number.isFinite(se) ? { lower: value - se, upper: value + se } : {}),
    };
  };
  const n = Math.max(...summaries.map((summary) => summary.replicates));
  return [
    {
      id: 'operating-characteristic',
      title: 'Operating characteristic',
      caption:
        `P(reject), P(accept) and P(inconclusive) over the true gap (up to ${n} replicates per point); ` +
        `bands are ±1 binomial Monte Carlo standard error; ${toleranceText}. Inside the lines a reject is a false ` +
        `violation, outside an accept is a false compliance.`,
      spec: lineChartSpec(
        summaries.flatMap((summary) =>
          decisions.map((decision) => point(summary, `p_${decision}`, `p_${decision}_se`, `P(${decision})`)),
        ),
        {
          title: 'Operating characteristic',
          subtitle: experiment,
          xTitle: 'True gap (b − a)',
          valueTitle: 'Probability',
          seriesTitle,
          band: true,
          valueDomain: [0, 1],
          xRules,
        },
      ),
    },
    {
      id: 'expected-sample-size',
      title: 'Expected sample size',
      caption:
        `Mean queries to termination over the true gap; bands are ±1 Monte Carlo standard error (sample ` +
        `sd/√n, up to ${n} replicates); ${toleranceText}.`,
      spec: lineChartSpec(
        summaries.map((summary) => point(summary, 'queries_mean', 'queries_mean_se')),
        {
          title: 'Expected sample size',
          subtitle: experiment,
          xTitle: 'True gap (b − a)',
          valueTitle: 'Mean queries',
          seriesTitle,
          band: true,
          xRules,
        },
      ),
    },
  ];
}

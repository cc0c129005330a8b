import type { CellSummary, SettingValue } from '../../report/cell-results.js';
import { type BarDatum, barChartSpec } from '../../report/charts/bar-chart.js';
import type { ChartSpec } from '../../report/charts/chart-spec.js';
import { type LineDatum, lineChartSpec } from '../../report/charts/line-chart.js';
import { settingTitle } from '../../report/charts/setting-names.js';

/** How the cells of a run map onto a chart: panels, x (category or swept value), series. */
export interface ChartLayout {
  panel?: string;
  swept?: string;
  category?: string;
  series: string[];
}

function distinct(summaries: CellSummary[], key: string): SettingValue[] {
  return [...new Set(summaries.map((summary) => summary.settings[key]).filter((value) => value !== undefined))];
}

/**
 * chooseChartLayout(summaries, varyingSettings) picks the chart roles of the varying
 * settings: `dataset` (else `pool`) makes panels; the first numeric setting with at least three
 * values is swept along x (lines); otherwise `access` (or the first remaining
 * setting) is the bar category; the rest become series. O(cells × settings).
 */
export function chooseChartLayout(summaries: CellSummary[], varyingSettings: string[]): ChartLayout {
  const varying = varyingSettings.filter((key) => distinct(summaries, key).length > 1);
  const panel = ['dataset', 'pool'].find((key) => varying.includes(key));
  const rest = varying.filter((key) => key !== panel);
  const swept = rest.find((key) => {
    const values = distinct(summaries, key);
    return values.length >= 3 && values.every((value) => typeof value === 'number');
  });
  if (swept !== undefined) return { panel, swept, series: rest.filter((key) => key !== swept) };
  const category = rest.includes('access') ? 'access' : rest[0];
  return { panel, category, series: rest.filter((key) => key !== category) };
}

function seriesLabel(summary: CellSummary, keys: string[]): string | undefined {
  if (keys.length === 0) return undefined;
  if (keys.length === 1) return String(summary.settings[keys[0]]);
  return keys.map((key) => `${key}=${String(summary.settings[key])}`).join(', ');
}

function number(value: unknown): number {
  return typeof value === 'number' ? value : Number.NaN;
}

/** What every chart of a sequential-audit run shares: the cells, their layout, titles and replicate count. */
interface ChartContext {
  readonly summaries: CellSummary[];
  readonly layout: ChartLayout;
  readonly panelOf: (summary: CellSummary) => string | undefined;
  readonly seriesTitle: string;
  readonly panelTitle: string | undefined;
  /** The most replicates of a cell. */
  readonly n: number;
  readonly experiment: string;
}

/** Lines over the swept setting: mean queries and accuracy, with ±1 SE bands. */
function sweptCharts(context: ChartContext, swept: string): ChartSpec[] {
  const { summaries, layout, panelOf, seriesTitle, panelTitle, n, experiment } = context;
  const charts: ChartSpec[] = [];
  const xTitle = settingTitle(swept);
  const line = (column: string, seColumn: string, summary: CellSummary): LineDatum => {
    const value = number(summary.values[column]);
    const se = number(summary.values[seColumn]);
    return {
      x: Number(summary.settings[swept]),
      series: seriesLabel(summary, layout.series),
      panel: panelOf(summary),
      value,
      ...(Number.isFinite(se) ? { lower: value - se, upper: value + se } : {}),
    };
  };
  charts.push({
    id: 'queries-over-' + swept,
    title: `Mean queries over ${xTitle}`,
    caption:
      `Mean queries to termination per cell over ${xTitle}; shaded bands are ±1 Monte Carlo standard ` +
      `error (std/√n, up to ${n} replicates).`,
    spec: lineChartSpec(
      summaries.map((summary) => line('queries_mean', 'queries_mean_se', summary)),
      {
        title: `Audit cost over ${xTitle}`,
        subtitle: experiment,
        xTitle,
        valueTitle: 'Mean queries to termination',
        seriesTitle,
        panelTitle,
        band: true,
        independentPanels: true,
      },
    ),
  });
  charts.push({
    id: 'accuracy-over-' + swept,
    title: `Accuracy over ${xTitle}`,
    caption:
      'Share of replicates whose decision equals the oracle decision (inconclusive counts as wrong); bands are ' +
      '±1 binomial standard error.',
    spec: lineChartSpec(
      summaries.map((summary) => line('accuracy', 'accuracy_se', summary)),
      {
        title: `Sequential audit accuracy over ${xTitle}`,
        subtitle: experiment,
        xTitle,
        valueTitle: 'Accuracy vs oracle',
        seriesTitle,
        panelTitle,
        band: true,
        valueDomain: [0, 1],
      },
    ),
  });
  return charts;
}

/** Bars per category: mean queries (±1 std, paper A Figure 1) and the accuracy of the sequential and fixed-sample
 * tests. */
function categoryCharts(context: ChartContext): ChartSpec[] {
  const { summaries, layout, panelOf, seriesTitle, panelTitle, n, experiment } = context;
  const charts: ChartSpec[] = [];
  const category = layout.category;
  const categoryOf = (summary: CellSummary) => (category ? String(summary.settings[category]) : summary.cell);
  const categoryTitle = category ? settingTitle(category) : 'Cell';
  charts.push({
    id: 'queries',
    title: 'Mean queries to termination',
    caption:
      `Bars: mean queries to termination (or pool/budget exhaustion) over up to ${n} replicates; error ` +
      `bars: ±1 standard deviation across replicates (as in paper A, Figure 1), clipped at 0.`,
    spec: barChartSpec(
      summaries.map((summary): BarDatum => {
        const mean = number(summary.values.queries_mean);
        const std = number(summary.values.queries_std);
        return {
          category: categoryOf(summary),
          series: seriesLabel(summary, layout.series),
          panel: panelOf(summary),
          value: mean,
          ...(Number.isFinite(std) ? { lower: Math.max(0, mean - std), upper: mean + std } : {}),
        };
      }),
      {
        title: 'Audit cost by ' + categoryTitle.toLowerCase(),
        subtitle: experiment,
        categoryTitle,
        valueTitle: 'Mean queries (±1 std)',
        seriesTitle,
        panelTitle,
        errorBars: true,
        independentPanels: true,
      },
    ),
  });
  charts.push({
    id: 'accuracy',
    title: 'Accuracy: sequential vs fixed-sample',
    caption:
      'Share of replicates whose decision equals the oracle decision (inconclusive counts as wrong) for the ' +
      'sequential test and the fixed-sample baseline; error bars: ±1 binomial standard error.',
    spec: barChartSpec(
      summaries.flatMap((summary): BarDatum[] =>
        (['sequential', 'fixed'] as const).map((method) => {
          const value = number(summary.values[method === 'sequential' ? 'accuracy' : 'fixed_accuracy']);
          const se = number(summary.values[method === 'sequential' ? 'accuracy_se' : 'fixed_accuracy_se']);
          const series = seriesLabel(summary, layout.series);
          return {
            category: categoryOf(summary),
            series: series === undefined ? method : `${series} · ${method}`,
            panel: panelOf(summary),
            value,
            ...(Number.isFinite(se) ? { lower: Math.max(0, value - se), upper: Math.min(1, value + se) } : {}),
          };
        }),
      ),
      {
        title: 'Accuracy against the oracle decision',
        subtitle: experiment,
        categoryTitle,
        valueTitle: 'Accuracy',
        seriesTitle: layout.series.length > 0 ? `${seriesTitle} · method` : 'Method',
        panelTitle,
        errorBars: true,
        valueDomain: [0, 1],
      },
    ),
  });
  return charts;
}

/** Decision frequencies stacked per cell. */
function decisionChart(context: ChartContext): ChartSpec {
  const { summaries, layout, panelOf, panelTitle, experiment } = context;
  const labelKeys = [layout.swept, layout.category, ...layout.series].filter((key): key is string => key !== undefined);
  const label = (summary: CellSummary) =>
    labelKeys.map((key) => String(summary.settings[key])).join(' / ') || summary.cell;
  return {
    id: 'decisions',
    title: 'Decision frequencies',
    caption: 'Share of replicates ending in reject, accept or inconclusive, per cell.',
    spec: barChartSpec(
      summaries.flatMap((summary) =>
        (['reject', 'accept', 'inconclusive'] as const).map((decision) => ({
          category: label(summary),
          series: decision,
          panel: panelOf(summary),
          value: number(summary.values[`frequency_${decision}`]),
        })),
      ),
      {
        title: 'Decision frequencies per cell',
        subtitle: experiment,
        categoryTitle: labelKeys.length > 0 ? labelKeys.map(settingTitle).join(' / ') : 'Cell',
        valueTitle: 'Share of replicates',
        seriesTitle: 'Decision',
        panelTitle,
        stacked: true,
        valueDomain: [0, 1],
        seriesColors: { reject: '#c0392b', accept: '#2e8b57', inconclusive: '#9e9e9e' },
      },
    ),
  };
}

/**
 * sequentialAuditCharts(summaries, varyingSettings, experiment) builds the charts of a
 * sequential-audit run: mean queries with ±1 std error bars (paper A Figure 1) or
 * lines over a swept setting with ±1 SE bands; accuracy of the sequential test and
 * the fixed-sample baseline; decision frequencies stacked per cell. O(cells).
 */
export function sequentialAuditCharts(
  summaries: CellSummary[],
  varyingSettings: string[],
  experiment: string,
): ChartSpec[] {
  if (summaries.length === 0) return [];
  const layout = chooseChartLayout(summaries, varyingSettings);
  const context: ChartContext = {
    summaries,
    layout,
    panelOf: (summary) => (layout.panel ? String(summary.settings[layout.panel]) : undefined),
    seriesTitle: layout.series.length === 1 ? settingTitle(layout.series[0]) : layout.series.join(', '),
    panelTitle: layout.panel ? settingTitle(layout.panel) : undefined,
    n: Math.max(...summaries.map((summary) => summary.replicates)),
    experiment,
  };
  const charts = layout.swept !== undefined ? sweptCharts(context, layout.swept) : categoryCharts(context);
  if (summaries.length <= 48) charts.push(decisionChart(context));
  return charts;
}

import { type CellSummary, findCells } from '../../src/report/cell-results.js';
import { type BarDatum, barChartSpec } from '../../src/report/charts/bar-chart.js';
import type { ChartSpec } from '../../src/report/charts/chart-spec.js';
import { ACCESS_REGIMES } from './access-table.js';
import { PAPER_A_BASE_POOLS } from './pools.js';

/** A published Figure 1 value (= Table 2's mean queries): pool name, access, mean. */
export interface PublishedFigurePoint {
  pool: string;
  access: string;
  mean: number;
}

/**
 * figure1Chart(summaries, published) builds paper A Figure 1: mean queries to
 * termination ± one std per access regime under SP, one panel per dataset, a bar per
 * base model, with the published means (Table 2) as red ticks when given. Panels
 * have their own y scale (ACS needs thousands of queries, Adult hundreds).
 * O(cells). Cells that are missing are left out.
 */
export function figure1Chart(
  summaries: CellSummary[],
  published: PublishedFigurePoint[] = [],
  subtitle?: string,
): ChartSpec {
  const data: Array<BarDatum & { published?: number }> = [];
  for (const pool of PAPER_A_BASE_POOLS) {
    for (const { access, label } of ACCESS_REGIMES) {
      const [cell] = findCells(summaries, { pool: pool.name, metric: 'sp', access });
      const mean = cell?.values.queries_mean;
      if (typeof mean !== 'number' || !Number.isFinite(mean)) continue;
      const std = Number(cell.values.queries_std);
      const spread = Number.isFinite(std) ? std : 0;
      const point = published.find((entry) => entry.pool === pool.name && entry.access === access);
      data.push({
        category: label.split(' (')[0],
        series: pool.modelLabel,
        panel: pool.datasetLabel,
        value: mean,
        lower: Math.max(0, mean - spread),
        upper: mean + spread,
        ...(point ? { published: point.mean } : {}),
      });
    }
  }
  const spec = barChartSpec(data, {
    title: 'Figure 1. Sequential audit cost under SP across access regimes',
    subtitle:
      subtitle ??
      'Bars: mean queries to termination; error bars: ± one std over the replicates; red ticks: published means ' +
        '(Table 2).',
    categoryTitle: 'Access regime',
    valueTitle: 'Queries to termination',
    seriesTitle: 'Model',
    panelTitle: 'Dataset',
    errorBars: true,
    independentPanels: true,
  });
  if (data.some((datum) => datum.published !== undefined)) {
    const inner = (spec.spec ?? spec) as { layer: Array<Record<string, unknown>> };
    inner.layer.push({
      mark: { type: 'tick', color: '#c0392b', thickness: 3, size: 22 },
      encoding: {
        x: { field: 'category', type: 'nominal', sort: null },
        xOffset: { field: 'series', type: 'nominal', sort: null },
        y: { field: 'published', type: 'quantitative' },
      },
    });
  }
  return {
    id: 'paper-a-figure-1',
    title: 'Figure 1. Sequential audit cost under SP across access regimes',
    caption:
      'Mean queries to termination with one standard deviation, per access regime, a panel per dataset (SP, base ' +
      'models). Red ticks mark the published means of Table 2.',
    spec,
  };
}

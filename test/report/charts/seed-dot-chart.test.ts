import { describe, expect, it } from 'vitest';
import { renderChartSvg } from '../../../src/report/charts/render-chart.js';
import { seedDotChart } from '../../../src/report/charts/seed-dot-chart.js';
import type { ComparisonRow } from '../../../src/report/compare-published.js';
import { trainingVariability } from '../../../src/report/training-variability.js';

function row(id: string, table: string, published: number | string, reproduced: number | string): ComparisonRow {
  return {
    id,
    table,
    row: 'Adult / Robust-DP',
    column: id,
    kind: 'mean',
    statistic: 'x',
    published,
    publishedSpread: null,
    reproduced,
    difference: null,
    tolerance: 0.01,
    status: 'outside',
    regression: false,
    note: '',
  };
}

const cells = trainingVariability(
  (['base', 'model', 'model', 'split'] as const).map((axis, k) => ({
    splitSeed: axis === 'split' ? 's/1' : 's',
    modelSeed: axis === 'model' ? `m/${k}` : 'm',
    axis,
    rows: [
      row('SP Gap', 'Table 1', 0.0043, 0.03 + k / 100),
      row('Queries', 'Table 1', 191, 150 + 10 * k),
      row('SP decision', 'Table 1', 'accept', k === 2 ? 'reject' : 'accept'),
      row('other', 'Table 2', 1, 2),
    ],
  })),
);

describe('seedDotChart(id, table, cells)', () => {
  it(
    'draws one strip per trained cell of the table (numbers and decisions), seeds on three lanes and the ' +
      'published value, and renders to SVG',
    async () => {
      const chart = seedDotChart('paper-a-seeds-table-1', 'Table 1', cells);
      if (chart === null) throw new Error('Table 1 has trained cells');
      expect(chart.title).toBe('Table 1: each trained cell over 4 seed pairs');
      const panels = chart.spec.vconcat as Array<{ data: { values: Array<Record<string, unknown>> } }>;
      expect(panels).toHaveLength(2);
      const numeric = panels[0].data.values;
      expect(new Set(numeric.map((datum) => datum.cell))).toEqual(
        new Set(['Adult / Robust-DP · SP Gap', 'Adult / Robust-DP · Queries']),
      );
      expect(numeric.filter((datum) => datum.kind === 'seed')).toHaveLength(8);
      expect(numeric.filter((datum) => datum.kind === 'published').map((datum) => datum.value)).toEqual([0.0043, 191]);
      const labels = panels[1].data.values;
      expect(
        labels.filter((datum) => datum.kind === 'seed').map((datum) => [datum.axis, datum.value, datum.count]),
      ).toEqual([
        ['seed 0 (the single run)', 'accept', 1],
        ['model seeds', 'accept', 1],
        ['model seeds', 'reject', 1],
        ['split seeds', 'accept', 1],
      ]);
      const svg = await renderChartSvg(chart.spec);
      for (const text of ['Table 1: each trained cell over 4 seed pairs', 'Adult / Robust-DP · SP Gap', 'reject'])
        expect(svg).toContain(text);
    },
  );

  it('returns null for a table without trained cells', () => {
    expect(seedDotChart('x', 'Table 9', cells)).toBeNull();
  });
});

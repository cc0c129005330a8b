import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chooseChartLayout, sequentialAuditCharts } from '../../src/kinds/sequential-audit/charts.js';
import type { CellSummary } from '../../src/report/cell-results.js';
import { barChartSpec } from '../../src/report/charts/bar-chart.js';
import { lineChartSpec } from '../../src/report/charts/line-chart.js';
import { renderChartSvg } from '../../src/report/charts/render-chart.js';
import { svgToPng } from '../../src/report/charts/svg-to-png.js';

function summary(settings: CellSummary['settings'], queries: number): CellSummary {
  return {
    cell: JSON.stringify(settings),
    settings,
    replicates: 20,
    values: {
      queries_mean: queries,
      queries_std: queries / 4,
      queries_mean_se: queries / 20,
      accuracy: 0.9,
      accuracy_se: 0.07,
      fixed_accuracy: 1,
      fixed_accuracy_se: 0,
      frequency_reject: 0.9,
      frequency_accept: 0,
      frequency_inconclusive: 0.1,
    },
  };
}

const sweep = ['acs', 'adult'].flatMap((dataset) =>
  [0.02, 0.05, 0.08].flatMap((tolerance) =>
    ['decision', 'logit'].map((access) =>
      summary({ dataset, tolerance, access }, 1000 * tolerance * (access === 'logit' ? 5 : 20)),
    ),
  ),
);

describe('chooseChartLayout(summaries, varyingSettings)', () => {
  it('puts datasets in panels, sweeps a numeric setting with ≥ 3 values along x, the rest in series', () => {
    expect(chooseChartLayout(sweep, ['dataset', 'tolerance', 'access'])).toEqual({
      panel: 'dataset',
      swept: 'tolerance',
      series: ['access'],
    });
  });
  it('uses access as the bar category when nothing is swept, and ignores settings that do not vary', () => {
    const cells = [
      summary({ dataset: 'acs', access: 'decision', model: 'm' }, 1),
      summary({ dataset: 'acs', access: 'score', model: 'm' }, 2),
    ];
    expect(chooseChartLayout(cells, ['dataset', 'model', 'access'])).toEqual({
      panel: undefined,
      category: 'access',
      series: [],
    });
  });
});

describe('renderChartSvg(spec)', () => {
  it('renders a faceted bar chart with error bars to SVG with its title and axis titles as text', async () => {
    const spec = barChartSpec(
      [
        { category: 'decision', panel: 'ACS', value: 2349, lower: 1004, upper: 3694 },
        { category: 'logit', panel: 'ACS', value: 708, lower: 165, upper: 1251 },
        { category: 'decision', panel: 'Adult', value: 191, lower: 0, upper: 406 },
      ],
      {
        title: 'Audit cost',
        categoryTitle: 'Access regime',
        valueTitle: 'Mean queries',
        panelTitle: 'Dataset',
        errorBars: true,
      },
    );
    const svg = await renderChartSvg(spec);
    expect(svg.startsWith('<svg')).toBe(true);
    for (const text of ['Audit cost', 'Access regime', 'Mean queries', 'ACS', 'Adult']) expect(svg).toContain(text);
    expect((svg.match(/mark-rule role-mark/g) ?? []).length).toBe(2); // the error-bar rule layer, once in each of the
    // two panels (ACS, Adult)
  });
  it('throws when the spec does not compile', async () => {
    await expect(
      renderChartSvg({ mark: 'bar', encoding: { x: { field: 'a', type: 'not-a-type' } }, data: { values: [] } }),
    ).rejects.toThrow();
  });
});

describe('sequentialAuditCharts(summaries, varyingSettings, experiment)', () => {
  it(
    'draws lines over the swept tolerance (queries and accuracy) and decision bars, each rendering to SVG and ' + 'PNG',
    async () => {
      const charts = sequentialAuditCharts(sweep, ['dataset', 'tolerance', 'access'], 'sweep-test');
      expect(charts.map((chart) => chart.id)).toEqual([
        'queries-over-tolerance',
        'accuracy-over-tolerance',
        'decisions',
      ]);
      const folder = mkdtempSync(join(tmpdir(), 'fairaudit-charts-'));
      for (const chart of charts) {
        const svg = await renderChartSvg(chart.spec);
        expect(svg).toContain('Tolerance δ');
        const png = svgToPng(svg);
        // PNG signature, then the IHDR width: the 2× rasterisation of the SVG's width
        expect(Buffer.from(png.subarray(0, 8)).toString('hex')).toBe('89504e470d0a1a0a');
        const width = Buffer.from(png).readUInt32BE(16);
        const svgWidth = Number(/width="(\d+(?:\.\d+)?)"/.exec(svg)?.[1]);
        expect(width).toBe(Math.round(svgWidth * 2));
        writeFileSync(join(folder, `${chart.id}.png`), png);
      }
      console.log(`charts written to ${folder}`);
    },
  );
  it('returns no charts for no cells', () => {
    expect(sequentialAuditCharts([], [], 'x')).toEqual([]);
  });
});

describe('lineChartSpec(data, { band: true })', () => {
  const data = ['Robust', 'Unstable'].flatMap((series, s) =>
    [0.01, 0.05, 0.1].map((x) => ({
      x,
      series,
      panel: 'SP',
      value: 100 * (s + 1) * x,
      lower: 90 * (s + 1) * x,
      upper: 110 * (s + 1) * x,
    })),
  );
  it('keeps the series legend beside the shaded band (one legend entry per series)', async () => {
    const options = {
      title: 'Queries',
      xTitle: 'Tolerance',
      valueTitle: 'Queries',
      seriesTitle: 'Pool',
      panelTitle: 'Metric',
    };
    const plain = await renderChartSvg(lineChartSpec(data, options));
    const banded = await renderChartSvg(lineChartSpec(data, { ...options, band: true }));
    const legendEntries = (svg: string) => (svg.match(/role-legend-symbol/g) ?? []).length;
    expect(legendEntries(plain)).toBe(2);
    expect(legendEntries(banded)).toBe(2);
    expect(banded).toMatch(/role-legend-title[\s\S]*?Pool/);
    // The band is drawn as area marks; the plain chart has none.
    expect(banded).toMatch(/class="mark-area role-mark/);
    expect(plain).not.toMatch(/class="mark-area role-mark/);
  });
});

import { describe, expect, it } from 'vitest';
import { barChartSpec } from '../../src/report/charts/bar-chart.js';
import { renderChartSvg } from '../../src/report/charts/render-chart.js';
import { type ReportContent, reportHtml } from '../../src/report/report-html.js';

const summary = {
  id: 'summary',
  title: 'Summary',
  columns: [{ name: 'cell', label: 'Cell', type: 'string' as const }],
  rows: [{ cell: 'a' }],
};

function content(overrides: Partial<ReportContent>): ReportContent {
  return {
    experiment: 'exp',
    kind: 'sequential-audit',
    kindDescription: 'd',
    generatedAt: '2026-11-29T00:00:00.000Z',
    provenance: [['git commit', 'abc']],
    config: { seed: 1 },
    summary,
    paperTables: [],
    charts: [],
    comparison: null,
    notices: [],
    ...overrides,
  };
}

describe('reportHtml(content)', () => {
  it('keeps element ids unique when several inline SVG charts each define clip paths', async () => {
    const spec = barChartSpec(
      [
        { category: 'a', panel: 'P', value: 1 },
        { category: 'b', panel: 'Q', value: 2 },
      ],
      { title: 'T', categoryTitle: 'c', valueTitle: 'v', panelTitle: 'p' },
    );
    const svg = await renderChartSvg(spec);
    const chart = (id: string) => ({
      chart: { id, title: id, spec },
      svg,
      files: { spec: `${id}.vl.json`, svg: `${id}.svg`, png: null },
    });
    const html = reportHtml(content({ charts: [chart('one'), chart('two')] }));
    const ids = [...html.matchAll(/\sid="([^"]+)"/g)].map((match) => match[1]);
    expect(ids.length).toBeGreaterThan(4);
    expect(new Set(ids).size).toBe(ids.length);
    for (const reference of html.matchAll(/url\(#([^)]+)\)/g)) expect(ids).toContain(reference[1]);
  });
  it('escapes the experiment name and the config, and says when a kind draws no charts', () => {
    const html = reportHtml(content({ experiment: '<b>x</b>', config: { note: '</pre><script>' } }));
    expect(html).toContain('fairaudit report: &lt;b&gt;x&lt;/b&gt;');
    expect(html).not.toContain('<script>');
    expect(html).toContain('This experiment kind draws no charts.');
  });
});

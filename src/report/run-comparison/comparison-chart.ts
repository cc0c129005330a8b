import type { ChartSpec } from '../charts/chart-spec.js';
import { chartConfig, vegaLiteSchema } from '../charts/chart-style.js';
import type { RunComparison } from './compare-runs.js';

/** A cell key's values in order, short: {"access":"score","pool":{"name":"a",...}} -> "score · a". */
function cellLabel(cell: string): string {
  try {
    const parsed = JSON.parse(cell) as Record<string, unknown>;
    return Object.values(parsed)
      .map((value) =>
        typeof value === 'object' && value !== null && 'name' in value ? String(value.name) : JSON.stringify(value),
      )
      .map((text) => text.replace(/^"|"$/g, ''))
      .join(' · ');
  } catch {
    return cell;
  }
}

/**
 * comparisonChart(comparison) is a Vega-Lite chart of every tested difference with its
 * simultaneous interval: one row of panels per statistic (each with its own x scale, so
 * queries and frequencies are both readable), cells on the y axis, a zero line, changed
 * differences in red. O(statistics).
 */
export function comparisonChart(comparison: RunComparison): ChartSpec {
  const values = comparison.statistics.map((s) => ({
    statistic: s.statistic,
    cell: comparison.runs.length > 1 ? `${s.run} ${cellLabel(s.cell)}` : cellLabel(s.cell),
    difference: s.result.difference,
    low: s.low,
    high: s.high,
    verdict: s.changed ? 'changed' : 'no change detected',
  }));
  const level = `${(100 * (1 - comparison.alpha)).toFixed(0)}%`;
  return {
    id: 'run-comparison',
    title: 'Head − base, with simultaneous intervals',
    caption:
      `Each dot is a statistic's difference head − base, each bar its interval; together the bars cover ` +
      `every true difference with probability at least ${level} (Bonferroni). A red dot is a change beyond Monte ` +
      `Carlo ` +
      `error (Holm).`,
    spec: {
      $schema: vegaLiteSchema,
      config: chartConfig,
      title: { text: 'Head − base, with simultaneous intervals', subtitle: comparison.summary.slice(0, 160) },
      data: { values },
      facet: {
        row: { field: 'statistic', type: 'nominal', title: null, header: { labelAngle: 0, labelAlign: 'left' } },
      },
      resolve: { scale: { x: 'independent', y: 'independent' } },
      spec: {
        width: 420,
        layer: [
          { mark: { type: 'rule', color: '#999', strokeDash: [3, 3] }, encoding: { x: { datum: 0 } } },
          {
            mark: { type: 'rule', strokeWidth: 2, color: '#4c78a8' },
            encoding: {
              y: { field: 'cell', type: 'nominal', title: null, sort: null },
              x: { field: 'low', type: 'quantitative', title: 'head − base' },
              x2: { field: 'high' },
            },
          },
          {
            mark: { type: 'point', filled: true, size: 50 },
            encoding: {
              y: { field: 'cell', type: 'nominal', sort: null },
              x: { field: 'difference', type: 'quantitative' },
              color: {
                field: 'verdict',
                type: 'nominal',
                scale: { domain: ['changed', 'no change detected'], range: ['#d62728', '#1f3b57'] },
                title: null,
              },
            },
          },
        ],
      },
    },
  };
}

import { describe, expect, it } from 'vitest';
import { operatingCharacteristicCharts } from '../../../src/kinds/operating-characteristic/charts.js';
import {
  summarizeOperatingCharacteristicCell,
  testNameOf,
} from '../../../src/kinds/operating-characteristic/report.js';
import type { CellResults } from '../../../src/report/cell-results.js';

function cell(truth: string, decisions: string[], queries: number[]): CellResults {
  return {
    cell: 'c',
    settings: { access: 'decision', tolerance: 0.05 },
    rows: decisions.map((decision, i) => ({ decision, queries: queries[i], true_gap: 0.03, truth })),
  };
}

describe('summarizeOperatingCharacteristicCell(cell)', () => {
  it(
    'gives P(reject), P(accept), P(inconclusive) with binomial standard errors, the error the truth makes ' +
      'relevant, and query quantiles',
    () => {
      const values = summarizeOperatingCharacteristicCell(
        cell('compliant', ['reject', 'accept', 'accept', 'inconclusive'], [10, 20, 30, 40]),
      );
      expect(values.p_reject).toBe(0.25);
      // sqrt(0.25 * 0.75 / 4)
      expect(values.p_reject_se).toBeCloseTo(0.21650635094610965, 15);
      expect(values.p_accept).toBe(0.5);
      expect(values.false_violation).toBe(0.25);
      expect(values.false_compliance).toBeNaN();
      expect(values.queries_mean).toBe(25);
      // numpy.quantile([10, 20, 30, 40], [0.1, 0.5, 0.9]) = [13, 25, 37]
      expect([values.queries_p10, values.queries_p50, values.queries_p90]).toEqual([13, 25, 37]);
      expect(values.test_name).toBe('wald-glr');
      const violating = summarizeOperatingCharacteristicCell(cell('violating', ['accept', 'reject'], [5, 5]));
      expect([violating.false_violation, violating.false_compliance]).toEqual([Number.NaN, 0.5]);
      const boundary = summarizeOperatingCharacteristicCell(cell('boundary', ['accept', 'reject'], [5, 5]));
      expect([boundary.false_violation, boundary.false_compliance]).toEqual([0.5, 0.5]);
    },
  );
});

describe('testNameOf(settings)', () => {
  it('reads the test setting, else the GLR the thresholds name', () => {
    expect(testNameOf({})).toBe('wald-glr');
    expect(testNameOf({ test: 'betting' })).toBe('betting');
    expect(testNameOf({ thresholds: 'calibrated' })).toBe('calibrated-glr');
    expect(testNameOf({ thresholds_upper: 5, thresholds_lower: -2 })).toBe('given-thresholds');
  });
});

describe('operatingCharacteristicCharts(summaries, varyingSettings, experiment)', () => {
  it(
    'draws the three probabilities and the expected sample size over the true gap, a line per test, the ' +
      'tolerance marked',
    () => {
      const summaries = [0, 0.05, 0.1].flatMap((gap) =>
        ['wald-glr', 'betting'].map((test) => ({
          cell: `${gap}${test}`,
          settings: { test, gap, access: 'decision', tolerance: 0.05 },
          replicates: 10,
          values: {
            test_name: test,
            true_gap: gap,
            p_reject: gap,
            p_reject_se: 0.01,
            p_accept: 0.5,
            p_accept_se: 0.01,
            p_inconclusive: 0.5 - gap,
            p_inconclusive_se: 0.01,
            queries_mean: 100,
            queries_mean_se: 5,
          },
        })),
      );
      const charts = operatingCharacteristicCharts(summaries, ['gap', 'test'], 'x');
      expect(charts.map((chart) => chart.id)).toEqual(['operating-characteristic', 'expected-sample-size']);
      const data = (charts[0].spec.data as { values: Array<{ series: string; panel: string }> }).values;
      expect(new Set(data.map((datum) => datum.series))).toEqual(new Set(['wald-glr', 'betting']));
      expect(new Set(data.map((datum) => datum.panel))).toEqual(new Set(['P(reject)', 'P(accept)', 'P(inconclusive)']));
      expect(JSON.stringify(charts[1].spec)).toContain('"datum":-0.05');
    },
  );
});

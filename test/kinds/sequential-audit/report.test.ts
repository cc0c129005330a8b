import { describe, expect, it } from 'vitest';
import { sequentialAuditStatistic, summarizeSequentialAuditCell } from '../../../src/kinds/sequential-audit/report.js';
import type { CellResults } from '../../../src/report/cell-results.js';

function cell(rows: Array<[string, number, string, string]>): CellResults {
  return {
    cell: 'c',
    settings: {},
    rows: rows.map(([decision, queries, oracle, fixed]) => ({
      decision,
      queries,
      oracle_decision: oracle,
      fixed_decision: fixed,
      oracle_gap: 0.0753,
      fixed_samples: 3362,
      pool_size: 3362,
      proxy_gap: Number.NaN,
      statistic: 1,
    })),
  };
}

describe('summarizeSequentialAuditCell(cell)', () => {
  it('counts decision frequencies and treats inconclusive as wrong for accuracy (paper A Table 4)', () => {
    // Paper A Table 5, Adult Robust-Base EO: 0.20 reject, 0.00 accept, 0.80 inconclusive with oracle reject;
    // Table 4 then prints accuracy 0.20. Five replicates with the same shares:
    const values = summarizeSequentialAuditCell(
      cell([
        ['reject', 900, 'reject', 'reject'],
        ['inconclusive', 3362, 'reject', 'reject'],
        ['inconclusive', 3362, 'reject', 'reject'],
        ['inconclusive', 3362, 'reject', 'accept'],
        ['inconclusive', 3362, 'reject', 'reject'],
      ]),
    );
    expect(values.frequency_reject).toBe(0.2);
    expect(values.frequency_accept).toBe(0);
    expect(values.frequency_inconclusive).toBe(0.8);
    expect(values.accuracy).toBe(0.2);
    expect(values.fixed_accuracy).toBe(0.8);
    expect(values.decision_mode).toBe('inconclusive');
    expect(values.oracle_decision).toBe('reject');
    expect(values.fixed_samples_mean).toBe(3362);
    // numpy: q=[900,3362,3362,3362,3362]; q.mean()=2869.6, q.std(ddof=1)=1101.0398721208965, and q.std(ddof=1)/√5 =
    // 492.4
    expect(values.queries_mean).toBeCloseTo(2869.6, 10);
    expect(values.queries_std).toBeCloseTo(1101.0398721208965, 9);
    expect(values.queries_mean_se).toBeCloseTo(492.4, 9);
    // binomial SE of accuracy 0.2 over 5: √(0.2·0.8/5) = 0.178885...
    expect(values.accuracy_se).toBeCloseTo(0.17888543819998318, 12);
    expect(values.proxy_gap).toBeNaN();
  });
  it('summarizeSequentialAuditCell of one replicate has NaN spread and 0/1 frequencies', () => {
    const values = summarizeSequentialAuditCell(cell([['accept', 12, 'accept', 'accept']]));
    expect(values.frequency_accept).toBe(1);
    expect(values.accuracy).toBe(1);
    expect(values.queries_mean).toBe(12);
    expect(values.queries_std).toBeNaN();
  });
  it('decision_mode breaks ties in the order reject, accept, inconclusive', () => {
    const values = summarizeSequentialAuditCell(
      cell([
        ['accept', 1, 'accept', 'accept'],
        ['reject', 1, 'accept', 'accept'],
      ]),
    );
    expect(values.decision_mode).toBe('reject');
  });
  it('summarizeSequentialAuditCell of no rows gives NaN frequencies and no mode', () => {
    const values = summarizeSequentialAuditCell({ cell: 'c', settings: {}, rows: [] });
    expect(values.frequency_reject).toBeNaN();
    expect(values.decision_mode).toBeNull();
  });
});

describe('sequentialAuditStatistic(quantity, labels)', () => {
  it('maps paper-a.json quantities to summary columns, the fixed method to the baseline', () => {
    expect(sequentialAuditStatistic('mean-queries', {})).toBe('queries_mean');
    expect(sequentialAuditStatistic('accuracy', { method: 'sequential' })).toBe('accuracy');
    expect(sequentialAuditStatistic('accuracy', { method: 'fixed' })).toBe('fixed_accuracy');
    expect(sequentialAuditStatistic('reject-frequency', {})).toBe('frequency_reject');
    expect(sequentialAuditStatistic('no-such-quantity', {})).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { groupMetricOracle, groupRateOracle } from '../../src/audit/group-oracle.js';
import type { AuditPool } from '../../src/audit/pool.js';

/** A pool from [group, label, decision] triples. */
function poolOf(rows: ReadonlyArray<readonly [number, number, number]>, groupNames?: string[]): AuditPool {
  return {
    size: rows.length,
    group: Uint8Array.from(rows, (row) => row[0]),
    label: Uint8Array.from(rows, (row) => row[1]),
    decision: Uint8Array.from(rows, (row) => row[2]),
    score: null,
    logit: null,
    id: null,
    source: 'test',
    ...(groupNames === undefined ? {} : { groupNames }),
  };
}

// Worked by hand. Group A: labels 1,1,0,0 decisions 1,0,1,0 → SP 2/4, TPR 1/2, FPR 1/2.
// Group B: labels 1,1,1,0 decisions 1,1,1,0 → SP 3/4, TPR 3/3, FPR 0/1.
// Group C: labels 1,0,0,0,0 decisions 0,1,0,0,0 → SP 1/5, TPR 0/1, FPR 1/4.
const THREE = poolOf(
  [
    [0, 1, 1],
    [0, 1, 0],
    [0, 0, 1],
    [0, 0, 0],
    [1, 1, 1],
    [1, 1, 1],
    [1, 1, 1],
    [1, 0, 0],
    [2, 1, 0],
    [2, 0, 1],
    [2, 0, 0],
    [2, 0, 0],
    [2, 0, 0],
  ],
  ['A', 'B', 'C'],
);

describe('groupRateOracle(pool, rate)', () => {
  it('groupRateOracle(pool, "sp") over three groups: rates, impact ratios, max − min, min / max', () => {
    const oracle = groupRateOracle(THREE, 'sp');
    expect(oracle.groups.map((row) => row.rate)).toEqual([0.5, 0.75, 0.2]);
    expect(oracle.groups.map((row) => row.impactRatio)).toEqual([0.5 / 0.75, 1, 0.2 / 0.75]);
    expect(oracle.difference).toBe(0.75 - 0.2);
    expect(oracle.ratio).toBe(0.2 / 0.75);
    expect(oracle.belowFourFifths).toEqual(['A', 'C']);
  });

  it('groupRateOracle(pool, "eo") and (pool, "pe") count the label-1 and label-0 rows', () => {
    const tpr = groupRateOracle(THREE, 'eo');
    expect(tpr.groups.map((row) => [row.rows, row.positives])).toEqual([
      [2, 1],
      [3, 3],
      [1, 0],
    ]);
    expect(tpr.difference).toBe(1);
    expect(tpr.ratio).toBe(0);
    const fpr = groupRateOracle(THREE, 'pe');
    expect(fpr.groups.map((row) => row.rate)).toEqual([0.5, 0, 0.25]);
    expect(fpr.difference).toBe(0.5);
    expect(fpr.groups.map((row) => row.impactRatio)).toEqual([1, 0, 0.5]);
  });

  it('a group without a row in the denominator has rate null and takes no part', () => {
    const oracle = groupRateOracle(
      poolOf(
        [
          [0, 1, 1],
          [1, 0, 1],
          [1, 1, 0],
        ],
        ['x', 'y'],
      ),
      'pe',
    );
    expect(oracle.groups[0]).toEqual({ name: 'x', rows: 0, positives: 0, rate: null, impactRatio: null });
    expect(oracle.difference).toBe(0);
    expect(oracle.ratio).toBe(1);
  });

  it('all-zero decisions: difference 0, ratio NaN (0/0, as Fairlearn gives), no impact ratio', () => {
    const oracle = groupRateOracle(
      poolOf([
        [0, 1, 0],
        [1, 1, 0],
      ]),
      'sp',
    );
    expect(oracle.difference).toBe(0);
    expect(oracle.ratio).toBeNaN();
    expect(oracle.groups.map((row) => row.impactRatio)).toEqual([null, null]);
  });

  it('on a 0/1 pool the sp difference is |rate b − rate a|, the two-group gap', () => {
    const oracle = groupRateOracle(
      poolOf([
        [0, 1, 1],
        [0, 0, 0],
        [1, 1, 1],
        [1, 0, 1],
        [1, 0, 1],
      ]),
      'sp',
    );
    expect(oracle.difference).toBe(0.5);
    expect(oracle.groups.map((row) => row.name)).toEqual(['0', '1']);
  });
});

describe('groupMetricOracle(pool, metric)', () => {
  it('groupMetricOracle(pool, "eodds") is the larger TPR/FPR difference and the smaller ratio', () => {
    const oracle = groupMetricOracle(THREE, 'eodds');
    expect(oracle.difference).toBe(Math.max(1, 0.5));
    expect(oracle.ratio).toBe(0);
    expect(oracle.rates.map((each) => each.rate)).toEqual(['eo', 'pe']);
  });
});

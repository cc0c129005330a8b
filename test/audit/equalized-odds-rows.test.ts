import { describe, expect, it } from 'vitest';
import { equalizedOddsRows } from '../../src/audit/equalized-odds-rows.js';
import type { AuditPool } from '../../src/audit/pool.js';

/** Six rows of three groups: group 2 has label-1 rows only unless `full`. */
function pool(full: boolean): AuditPool {
  return {
    size: 6,
    group: Uint8Array.from([0, 1, 2, 0, 1, 2]),
    label: Uint8Array.from([0, 0, full ? 0 : 1, 1, 1, 1]),
    decision: Uint8Array.from([1, 0, 1, 0, 1, 1]),
    score: null,
    logit: null,
    id: null,
    source: 'test',
    groupNames: ['A', 'B', 'C'],
  };
}

describe('equalizedOddsRows(pool, observed)', () => {
  it('codes every row label · K + group, with the label-0 and label-1 rows of each group', () => {
    const rows = equalizedOddsRows(pool(true), pool(true).decision);
    expect(Array.from(rows.group)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(Array.from(rows.value)).toEqual([1, 0, 1, 0, 1, 1]);
    expect(rows.falsePositiveSizes).toEqual([1, 1, 1]);
    expect(rows.truePositiveSizes).toEqual([1, 1, 1]);
    expect(rows.groupSizes).toEqual([1, 1, 1, 1, 1, 1]);
  });

  it('refuses a group without label-0 rows, naming it', () => {
    expect(() => equalizedOddsRows(pool(false), pool(false).decision)).toThrow(
      /test: metric pe: expected rows with label = 0 in every group .*found "none in group .*C/,
    );
  });
});

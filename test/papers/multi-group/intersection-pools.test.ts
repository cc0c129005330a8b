import { describe, expect, it } from 'vitest';
import { regroup } from '../../../papers/multi-group/intersection-pools.js';
import type { AuditPool } from '../../../src/audit/pool.js';
import type { DatasetTable } from '../../../src/data/dataset-table.js';

// Four raw rows (raw indices 10..13, stored out of order) with race and sex; the pool holds three of them.
const table = {
  name: 'toy',
  rows: 4,
  columns: [
    { name: 'race', kind: 'categorical', codes: Int32Array.from([1, 0, 1, 0]), levels: ['Black', 'White'] },
    { name: 'sex', kind: 'categorical', codes: Int32Array.from([0, 0, 1, 1]), levels: ['Female', 'Male'] },
  ],
  rowIndex: Int32Array.from([13, 10, 12, 11]),
} as unknown as DatasetTable;

const pool: AuditPool = {
  size: 3,
  group: Uint8Array.from([0, 1, 1]),
  label: Uint8Array.from([1, 0, 1]),
  decision: Uint8Array.from([1, 1, 0]),
  score: null,
  logit: null,
  id: Int32Array.from([10, 11, 13]),
  source: 'toy pool',
};

describe('regroup(pool, table, attributes)', () => {
  it('joins on the raw row index and names the race × sex combinations in sorted order', () => {
    const grouped = regroup(pool, table, ['race', 'sex']);
    // race code 0 is Black, 1 White. id 10 → table row 1 (Black, Female); 11 → row 3 (Black, Male);
    // 13 → row 0 (White, Female).
    expect(grouped.groupNames).toEqual(['Black & Female', 'Black & Male', 'White & Female']);
    expect(Array.from(grouped.group)).toEqual([0, 1, 2]);
    expect(grouped.decision).toBe(pool.decision);
  });

  it('throws when a pool row id is not in the dataset', () => {
    expect(() => regroup({ ...pool, id: Int32Array.from([10, 11, 99]) }, table, ['race'])).toThrow(/row id 99/);
  });
});

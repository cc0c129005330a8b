import { describe, expect, it } from 'vitest';
import { auditMultiGroupPool } from '../../src/audit/audit-multi-group-pool.js';
import { createMultiGroupTest } from '../../src/audit/create-multi-group-test.js';
import { multiGroupRows, runMultiGroupAudit } from '../../src/audit/multi-group-audit.js';
import type { AuditPool } from '../../src/audit/pool.js';
import { createRandom, deriveSeed } from '../../src/util/random.js';

/** A pool of three named groups of 2,000 rows each, decided 1 at the given rates (deterministic rows). */
function threeGroups(rates: readonly number[]): AuditPool {
  const size = 6000;
  const group = new Uint8Array(size);
  const decision = new Uint8Array(size);
  const label = new Uint8Array(size);
  for (let row = 0; row < size; row++) {
    const g = row % 3;
    const index = Math.floor(row / 3);
    group[row] = g;
    decision[row] = index < rates[g] * 2000 ? 1 : 0;
    label[row] = index % 2;
  }
  return {
    size,
    group,
    label,
    decision,
    score: null,
    logit: null,
    id: null,
    source: 'test',
    groupNames: ['A', 'B', 'C'],
  };
}

describe('runMultiGroupAudit(rows, test, budget, random)', () => {
  it('rejects a 0.3 gap over three groups, and leaves the scratch order as it found it', () => {
    const rows = multiGroupRows(threeGroups([0.3, 0.45, 0.6]), 'sp', threeGroups([0.3, 0.45, 0.6]).decision);
    const { test } = createMultiGroupTest({
      groupSizes: rows.groupSizes,
      test: 'betting',
      access: 'decision',
      aggregation: 'difference',
      tolerance: 0.05,
      alpha: 0.05,
      beta: 0.2,
    });
    const result = runMultiGroupAudit(rows, test, 6000, createRandom(deriveSeed('t', 0)));
    expect(result.decision).toBe('reject');
    expect(result.queries).toBeLessThan(6000);
    expect(Array.from(rows.order)).toEqual(Array.from({ length: 6000 }, (_, i) => i));
    // The same generator stream gives the same audit.
    expect(runMultiGroupAudit(rows, test, 6000, createRandom(deriveSeed('t', 0)))).toEqual(result);
  });

  it('multiGroupRows(pool, "eo", …) keeps the label-1 rows and refuses a group without any', () => {
    const pool = threeGroups([0.5, 0.5, 0.5]);
    expect(multiGroupRows(pool, 'eo', pool.decision).groupSizes).toEqual([1000, 1000, 1000]);
    const noPositives = { ...pool, label: pool.label.map((value, row) => (row % 3 === 2 ? 0 : value)) };
    expect(() => multiGroupRows(noPositives, 'eo', pool.decision)).toThrow(
      /expected rows with label = 1 in every group .*none in group .*C/,
    );
  });
});

describe('auditMultiGroupPool(pool, settings)', () => {
  it('states H0 over K groups, the verdict with its guarantee, and the oracle over all groups', () => {
    const summary = auditMultiGroupPool(threeGroups([0.3, 0.45, 0.6]), { seed: 's' });
    expect(summary.hypothesis).toBe('H0 max − min of the SP rates over 3 groups ≤ 0.05');
    expect(summary.verdict).toBe('violation');
    expect(summary.verdictText).toMatch(
      /^VIOLATION: H0 max − min .* rejected after \d+ queries \(betting over 3 groups/,
    );
    expect(summary.oracle.difference).toBeCloseTo(0.3, 12);
    expect(summary.oracle.belowFourFifths).toEqual(['A', 'B']);
    expect(summary.oracleDecision).toBe('reject');
  });

  it('refuses the calibrated GLR and logit access, naming the setting', () => {
    const pool = threeGroups([0.5, 0.5, 0.5]);
    expect(() => auditMultiGroupPool(pool, { seed: 's', test: 'confidence-sequence' })).toThrow(
      /test \(a pool of named groups\)/,
    );
    expect(() => auditMultiGroupPool(pool, { seed: 's', order: 'balanced' })).toThrow(
      /order \(a pool of named groups\)/,
    );
  });
});

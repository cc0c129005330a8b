import { describe, expect, it } from 'vitest';
import { exactManipulationCost } from '../../src/respir/exact-manipulation-cost.js';
import {
  benchmarkExactMinimalFlips,
  type ExactMinimumWorkloadRow,
} from '../../src/respir/exact-minimal-flips-benchmark.js';
import { InputError } from '../../src/util/errors.js';

/** Three small settings (COMPAS-sized and smaller), quick to compute exactly. */
const rows: ExactMinimumWorkloadRow[] = [400, 800, 1200].map((size) => ({
  label: `N = ${size}`,
  setting: {
    candidateSetSize: size,
    auditSetSize: size / 2,
    candidateMinoritySize: size * 0.35,
    auditMinoritySize: size * 0.175,
    gap: 0.16,
    tolerance: 0.08,
    passProbability: 0.8,
    canaryEffectiveness: 0.8,
    canaryCounts: [5, 20],
    minorityRate: 0.5,
  },
}));

describe('benchmarkExactMinimalFlips(rows, options)', () => {
  it(
    "gives every row exactManipulationCost's minimum, in the rows' order, on the calling thread and on 2 worker " +
      'threads alike',
    async () => {
      const expected = rows.map((row) => exactManipulationCost(row.setting).respir.flips);
      const one = await benchmarkExactMinimalFlips(rows);
      const two = await benchmarkExactMinimalFlips(rows, { threads: 2 });
      expect(one.threads).toBe(1);
      expect(two.threads).toBe(2);
      for (const result of [one, two]) {
        expect(result.rows.map((row) => row.label)).toEqual(rows.map((row) => row.label));
        expect(result.rows.map((row) => row.flips)).toEqual(expected);
        expect(result.rows.every((row) => row.exact && row.seconds >= 0)).toBe(true);
      }
    },
  );

  it('keeps a bad row InputError across the worker thread', async () => {
    const bad = [{ ...rows[0], setting: { ...rows[0].setting, minorityRate: 2 } }];
    await expect(benchmarkExactMinimalFlips(bad, { threads: 2 })).rejects.toThrow(InputError);
  });
});

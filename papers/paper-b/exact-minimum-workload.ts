import { minorityRateForOverallRate } from '../../src/respir/exact-manipulation-cost.js';
import type { ExactMinimumWorkloadRow } from '../../src/respir/exact-minimal-flips-benchmark.js';
import type { DatasetCharacteristics } from './dataset-characteristics.js';

/**
 * paperBExactWorkload(rows) is the exact-minimum workload of `bench respir`: paper B's
 * seven Table 2 rows (published sizes and |d_C|), ε = |d_C|/2, 1 − δ = 0.8, uniform S
 * (§5). Table 2 prints no rates, so each row gets a pooled decision-1 rate and a gap
 * sign: those of our own models' candidate sets (CCD about 0.12 with the smaller group
 * favoured, COMPAS about 0.39 with the larger group favoured); HateDay has no model
 * here: 0.05, an assumption made for timing only. O(rows).
 */
export function paperBExactWorkload(rows: readonly DatasetCharacteristics[]): ExactMinimumWorkloadRow[] {
  const rates: Record<string, { overall: number; sign: number }> = {
    ccd: { overall: 0.12, sign: 1 },
    compas: { overall: 0.39, sign: -1 },
    hateday: { overall: 0.05, sign: 1 },
  };
  return rows.map((row) => {
    const rate = rates[row.dataset] ?? { overall: 0.5, sign: 1 };
    const gap = rate.sign * Math.abs(row.gap);
    return {
      label: `${row.datasetLabel} ${row.attribute}`,
      setting: {
        candidateSetSize: row.candidateSetSize,
        auditSetSize: row.auditSetSize,
        candidateMinoritySize: row.candidateMinoritySize,
        auditMinoritySize: row.auditMinoritySize,
        gap,
        tolerance: Math.abs(row.gap) / 2,
        passProbability: 0.8,
        canaryEffectiveness: 0.8,
        canaryCounts: [5, 10, 20, 50],
        minorityRate: minorityRateForOverallRate(rate.overall, gap, row.candidateSetSize, row.candidateMinoritySize),
        design: 'uniform',
      },
    };
  });
}

import { describe, expect, it } from 'vitest';
import type { DatasetCharacteristics } from '../../../papers/paper-b/dataset-characteristics.js';
import { paperBTable3Options } from '../../../papers/paper-b/table-3.js';
import {
  exactMinimumRow,
  exactMinimumTable,
  HATEDAY_NOT_COMPUTED,
  notComputedRow,
} from '../../../papers/paper-b/table-3-exact.js';
import { detectionProbability } from '../../../src/respir/detection-probability.js';
import { exactMinimalFlips } from '../../../src/respir/exact-minimal-flips.js';
import { exactVanillaFlips } from '../../../src/respir/exact-vanilla-flips.js';

/** A Table 2 row with the sizes of paper B's COMPAS race (N = 2,778, N_min = 947, n = 1,389, n_min = 473). */
const characteristics: DatasetCharacteristics = {
  dataset: 'compas',
  datasetLabel: 'COMPAS',
  attribute: 'race',
  datasetSize: 6172,
  accuracy: 0.66,
  gap: 0,
  candidateSetSize: 2778,
  auditSetSize: 1389,
  candidateMinoritySize: 947,
  auditMinoritySize: 473,
  minorityShare: 947 / 2778,
  origin: 'reproduced',
};

describe('exactMinimumRow(input, options)', () => {
  it(
    'is exactMinimalFlips and exactVanillaFlips on the counts, with Eq. 3 over N and n (ε = |d_C|/2, 1 − δ = ' + '0.8)',
    () => {
      const candidate = { sizes: [1831, 947] as const, positives: [732, 534] as const };
      const row = exactMinimumRow({ characteristics, candidate, auditSizes: [916, 473] }, paperBTable3Options);
      const tolerance = (534 / 947 - 732 / 1831) / 2;
      expect(row.tolerance).toBeCloseTo(tolerance, 15);
      const exact = exactMinimalFlips({
        population: {
          groupSizes: candidate.sizes,
          eligibleSizes: candidate.sizes,
          eligiblePositives: candidate.positives,
        },
        auditSetSize: 1389,
        design: 'uniform',
        tolerance,
        passProbability: 0.8,
      });
      expect(row.exactRespirFlips).toBe(exact.flips);
      expect(row.certified).toBe(true);
      expect(row.passAtMinimum).toBeGreaterThanOrEqual(0.8);
      expect([row.changeLarger, row.changeSmaller]).toEqual(exact.changes);
      // Vanilla on S's sizes at C's rates: round(732/1831 · 916) = 366, round(534/947 · 473) = 267.
      expect(row.exactVanillaFlips).toBe(
        exactVanillaFlips({ sizes: [916, 473], positives: [366, 267] }, tolerance)?.flips,
      );
      expect(row.respirDetection?.['20']).toBeCloseTo(detectionProbability(exact.flips as number, 2778, 0.8, 20), 15);
      // The exact minimum is below Theorem 1's sufficient count.
      expect(row.exactRespirFlips as number).toBeLessThan(row.theorem1Flips as number);
      expect(row.note).toBe('');
    },
  );

  it('flags a row whose ε is below sampling noise: even a C without gap passes with probability below 1 − δ', () => {
    // CCD marriage-like: |d_C| ≈ 0.007 on 13,500 candidates, rate 0.12: ε ≈ 0.0037.
    const noisy = {
      ...characteristics,
      candidateSetSize: 13_500,
      auditSetSize: 6750,
      candidateMinoritySize: 6000,
      auditMinoritySize: 3000,
    };
    const row = exactMinimumRow(
      { characteristics: noisy, candidate: { sizes: [7500, 6000], positives: [870, 738] }, auditSizes: [3750, 3000] },
      paperBTable3Options,
    );
    expect(row.zeroGapPass as number).toBeLessThan(0.8);
    expect(row.note).toMatch(
      /^ε below sampling noise: a C without gap passes with probability 0\.\d{3} < 0\.8; the minimum thins positives$/,
    );
  });
});

describe('exactMinimumTable(rows, options)', () => {
  it('lays the rows out with the k columns, the ratio at k = 20, and the reason for a row not computed', () => {
    const row = exactMinimumRow(
      { characteristics, candidate: { sizes: [1831, 947], positives: [732, 534] }, auditSizes: [916, 473] },
      paperBTable3Options,
    );
    const hateday = notComputedRow(
      { ...characteristics, dataset: 'hateday', datasetLabel: 'HateDay', attribute: 'target', gap: 0.049 },
      HATEDAY_NOT_COMPUTED,
      paperBTable3Options,
    );
    const table = exactMinimumTable([row, hateday], paperBTable3Options);
    expect(table.id).toBe('paper-b-table-3-exact');
    expect(table.columns.map((column) => column.name)).toContain('respir_detection_k50');
    const ratio = table.rows[0].detection_ratio_k20 as number;
    expect(ratio).toBeCloseTo((row.respirDetection?.['20'] as number) / (row.vanillaDetection?.['20'] as number), 15);
    expect(table.rows[1].exact_respir_flips).toBeNull();
    expect(table.rows[1].note).toBe(HATEDAY_NOT_COMPUTED);
  });
});

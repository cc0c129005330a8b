import { describe, expect, it } from 'vitest';
import { groupAuditSizes } from '../../src/audit/audit-design.js';
import { createAuditSetDrawer } from '../../src/respir/audit-set-drawer.js';
import type { AuditStrata } from '../../src/respir/audit-strata.js';
import { hypergeometricKernel, hypergeometricProbability } from '../../src/respir/hypergeometric.js';
import { logFactorialTable } from '../../src/respir/log-factorial-table.js';
import { createRandom } from '../../src/util/random.js';

/** C(n, k) exactly, with BigInt: an independent reference for the log-factorial pmf. */
function binomial(n: number, k: number): bigint {
  if (k < 0 || k > n) return 0n;
  let result = 1n;
  for (let i = 0; i < k; i++) result = (result * BigInt(n - i)) / BigInt(i + 1);
  return result;
}

function exactHypergeometric(population: number, successes: number, draws: number, value: number): number {
  const numerator = binomial(successes, value) * binomial(population - successes, draws - value);
  return Number((numerator * 10n ** 15n) / binomial(population, draws)) / 1e15;
}

function strataOf(counts: number[]): AuditStrata {
  const size = counts.length;
  return {
    counts: Int32Array.from(counts),
    group: Uint8Array.from(counts.map((_, i) => (i < size / 2 ? 0 : 1))),
    eligible: new Uint8Array(size).fill(1),
    positive: new Uint8Array(size),
    originallyPositive: new Uint8Array(size),
    flipped: new Uint8Array(size),
  };
}

describe('hypergeometricProbability(logFactorials, N, K, n, x)', () => {
  it('equals C(K,x)C(N−K,n−x)/C(N,n) computed with BigInt', () => {
    const table = logFactorialTable(60);
    for (const [population, successes, draws] of [
      [50, 20, 15],
      [60, 3, 40],
      [10, 10, 4],
    ]) {
      for (let x = 0; x <= draws; x++) {
        expect(hypergeometricProbability(table, population, successes, draws, x)).toBeCloseTo(
          exactHypergeometric(population, successes, draws, x),
          12,
        );
      }
    }
  });
});

describe('hypergeometricKernel(random, logFactorials, N, K, n)', () => {
  it(
    'draws the exact law: 200,000 draws of Hypergeometric(50, 20, 15), each count within 4 sd (+3 for the far ' +
      'tail)',
    () => {
      const table = logFactorialTable(50);
      const random = createRandom('hypergeometric-small');
      const draws = 200_000;
      const histogram = new Array(16).fill(0);
      for (let i = 0; i < draws; i++) histogram[hypergeometricKernel(random, table, 50, 20, 15)]++;
      for (let x = 0; x <= 15; x++) {
        const p = exactHypergeometric(50, 20, 15, x);
        const expected = draws * p;
        expect(Math.abs(histogram[x] - expected), `x = ${x}`).toBeLessThan(4 * Math.sqrt(expected * (1 - p)) + 3);
      }
    },
  );
  it('has the textbook mean and variance on a CCD-sized draw (N = 13,500, K = 5,350, n = 6,750)', () => {
    const table = logFactorialTable(13_500);
    const random = createRandom('hypergeometric-large');
    const draws = 50_000;
    let sum = 0;
    let squares = 0;
    for (let i = 0; i < draws; i++) {
      const x = hypergeometricKernel(random, table, 13_500, 5_350, 6_750);
      sum += x;
      squares += x * x;
    }
    const mean = sum / draws;
    const variance = squares / draws - mean * mean;
    const p = 5_350 / 13_500;
    const exactVariance = 6_750 * p * (1 - p) * ((13_500 - 6_750) / (13_500 - 1)); // ≈ 681.6
    expect(Math.abs(mean - 2_675)).toBeLessThan(4 * Math.sqrt(exactVariance / draws));
    expect(Math.abs(variance / exactVariance - 1)).toBeLessThan(0.03);
  });
  it('returns the only value of a degenerate support (no successes, all drawn)', () => {
    const table = logFactorialTable(20);
    const random = createRandom(1);
    expect(hypergeometricKernel(random, table, 20, 0, 7)).toBe(0);
    expect(hypergeometricKernel(random, table, 20, 5, 20)).toBe(5);
    expect(hypergeometricKernel(random, table, 20, 18, 7)).toBeGreaterThanOrEqual(5);
  });
});

describe('createAuditSetDrawer(strata, n, design, sampler)', () => {
  // Ten strata, 9 rows, n = 4: the exact law of the count vector comes from all C(9, 4) = 126 subsets.
  const counts = [2, 1, 0, 1, 1, 1, 2, 0, 0, 1];
  const exactLaw = (() => {
    const rows = counts.flatMap((count, stratum) => new Array(count).fill(stratum));
    const law = new Map<string, number>();
    const total = Number(binomial(rows.length, 4));
    for (let mask = 0; mask < 1 << rows.length; mask++) {
      let bits = 0;
      for (let i = 0; i < rows.length; i++) bits += (mask >> i) & 1;
      if (bits !== 4) continue;
      const vector = new Array(counts.length).fill(0);
      rows.forEach((stratum, i) => {
        if ((mask >> i) & 1) vector[stratum]++;
      });
      const key = vector.join(',');
      law.set(key, (law.get(key) ?? 0) + 1 / total);
    }
    return law;
  })();

  for (const sampler of ['counts', 'indices'] as const) {
    it(
      `draws the exact multivariate hypergeometric law of S's stratum counts with sampler '${sampler}' ` +
        `(chi-square)`,
      () => {
        const drawer = createAuditSetDrawer(strataOf(counts), 4, 'uniform', sampler);
        const random = createRandom(`drawer-${sampler}`);
        const draws = 60_000;
        const out = new Int32Array(counts.length);
        const seen = new Map<string, number>();
        for (let i = 0; i < draws; i++) {
          drawer(random, out);
          const key = Array.from(out).join(',');
          seen.set(key, (seen.get(key) ?? 0) + 1);
        }
        for (const key of seen.keys()) expect(exactLaw.has(key), `impossible vector ${key}`).toBe(true);
        let chiSquare = 0;
        for (const [key, p] of exactLaw) chiSquare += ((seen.get(key) ?? 0) - draws * p) ** 2 / (draws * p);
        const freedom = exactLaw.size - 1;
        // mean df, sd sqrt(2 df): a wrong law gives thousands here; 5 sd is a false alarm rate below 1e-5
        expect(chiSquare).toBeLessThan(freedom + 5 * Math.sqrt(2 * freedom));
      },
    );
  }

  it('keeps group totals fixed under the stratified designs, for both samplers', () => {
    const strata = strataOf([30, 20, 0, 5, 45, 10, 5, 0, 0, 5]);
    for (const sampler of ['counts', 'indices'] as const) {
      for (const design of ['proportional', 'balanced'] as const) {
        const sizes = groupAuditSizes(design, [100, 20], 40)!;
        const drawer = createAuditSetDrawer(strata, 40, design, sampler);
        const out = new Int32Array(10);
        const random = createRandom(`${sampler}-${design}`);
        for (let i = 0; i < 200; i++) {
          drawer(random, out);
          expect(out.slice(0, 5).reduce((a, b) => a + b, 0)).toBe(sizes[0]);
          expect(out.slice(5).reduce((a, b) => a + b, 0)).toBe(sizes[1]);
          for (let s = 0; s < 10; s++) expect(out[s]).toBeLessThanOrEqual(strata.counts[s]);
        }
      }
    }
  });
});

import { describe, expect, it } from 'vitest';
import {
  compareCountDifference,
  countGapDecision,
  countGapExceedsTolerance,
  decimalFraction,
} from '../../src/stats/count-gap-comparison.js';
import { createRandom } from '../../src/util/random.js';

describe('decimalFraction(value)', () => {
  it('is the decimal the number prints as, as an exact fraction', () => {
    expect(decimalFraction(0.05)).toEqual({ numerator: 5n, denominator: 100n });
    expect(decimalFraction(0.3)).toEqual({ numerator: 3n, denominator: 10n });
    expect(decimalFraction(0.25)).toEqual({ numerator: 25n, denominator: 100n });
    expect(decimalFraction(1e-7)).toEqual({ numerator: 1n, denominator: 10n ** 7n });
    expect(decimalFraction(1.5e-10)).toEqual({ numerator: 15n, denominator: 10n ** 11n });
    expect(decimalFraction(2.5)).toEqual({ numerator: 25n, denominator: 10n });
    expect(decimalFraction(3e21)).toEqual({ numerator: 3n * 10n ** 21n, denominator: 1n });
  });
});

describe('countGapExceedsTolerance(countA, positivesA, countB, positivesB, tolerance)', () => {
  // Pairs whose gap is exactly the tolerance while the double difference of the rates
  // lies above it (found with Python's fractions.Fraction over counts up to 60:
  // Fraction(sb, nb) - Fraction(sa, na) == tolerance and sb/nb - sa/na > tolerance).
  const exactGaps: Array<[number, number, number, number, number, string]> = [
    [20, 7, 20, 8, 0.05, '0.40 - 0.35 = 0.05000000000000004'],
    [2, 1, 20, 11, 0.05, '0.55 - 0.5 = 0.050000000000000044'],
    [4, 3, 5, 4, 0.05, '0.8 - 0.75 = 0.050000000000000044'],
    [3, 1, 30, 13, 0.1, '13/30 - 1/3 = 0.10000000000000003'],
    [3, 2, 30, 23, 0.1, '23/30 - 2/3 = 0.10000000000000009'],
    [3, 1, 12, 7, 0.25, '7/12 - 1/3 = 0.25000000000000006'],
    [6, 2, 24, 14, 0.25, '14/24 - 2/6 = 0.25000000000000006'],
    [2, 1, 5, 4, 0.3, '0.8 - 0.5 = 0.30000000000000004 (and the double 0.3 is below 3/10)'],
  ];

  it('does not count a gap of exactly the tolerance as exceeding it, either sign', () => {
    for (const [na, sa, nb, sb, tolerance, why] of exactGaps) {
      // The double difference really is above the tolerance: the old comparison rejected.
      expect(sb / nb - sa / na, why).toBeGreaterThan(tolerance);
      expect(countGapExceedsTolerance(na, sa, nb, sb, tolerance), why).toBe(false);
      expect(countGapExceedsTolerance(nb, sb, na, sa, tolerance), why).toBe(false);
      expect(countGapDecision(na, sa, nb, sb, tolerance), why).toBe('accept');
      // Scaled counts have the same gap.
      expect(countGapExceedsTolerance(7 * na, 7 * sa, 11 * nb, 11 * sb, tolerance), why).toBe(false);
    }
  });

  it('rejects the smallest step above an exact-tolerance gap', () => {
    for (const [na, sa, nb, sb, tolerance] of exactGaps) {
      // Group b with one more positive out of 10 times the rows: gap + 1/(10 nb).
      if (sb < nb) expect(countGapExceedsTolerance(10 * na, 10 * sa, 10 * nb, 10 * sb + 1, tolerance)).toBe(true);
      else expect(countGapExceedsTolerance(10 * na, 10 * sa - 1, 10 * nb, 10 * sb, tolerance)).toBe(true);
    }
  });

  it('agrees with the floating comparison wherever the gap is not within 1e-9 of the tolerance', () => {
    const random = createRandom('count-gap');
    let compared = 0;
    for (let i = 0; i < 20_000; i++) {
      const na = 1 + Math.floor(random() * 500);
      const nb = 1 + Math.floor(random() * 500);
      const sa = Math.floor(random() * (na + 1));
      const sb = Math.floor(random() * (nb + 1));
      const tolerance = [0.05, 0.1, 0.3, 0.123, 1e-3][i % 5];
      const gap = Math.abs(sb / nb - sa / na);
      if (Math.abs(gap - tolerance) < 1e-9) continue;
      compared++;
      expect(countGapExceedsTolerance(na, sa, nb, sb, tolerance)).toBe(gap > tolerance);
    }
    expect(compared).toBeGreaterThan(19_000);
  });

  it('stays exact when the products pass 2^53 (the BigInt path)', () => {
    // nA = nB = 2e8: nA nB q = 4e16 x 100 > 2^53. Gap exactly 0.05: 0.35 and 0.40.
    const n = 200_000_000;
    expect(countGapExceedsTolerance(n, 0.35 * n, n, 0.4 * n, 0.05)).toBe(false);
    expect(countGapExceedsTolerance(n, 0.35 * n, n, 0.4 * n + 1, 0.05)).toBe(true);
    expect(countGapExceedsTolerance(n, 0.4 * n, n, 0.35 * n - 1, 0.05)).toBe(true);
    // A tolerance with many digits: 0.123456789 = 123456789/10^9.
    const m = 1_000_000_000;
    expect(countGapExceedsTolerance(m, 0, m, 123_456_789, 0.123456789)).toBe(false);
    expect(countGapExceedsTolerance(m, 0, m, 123_456_790, 0.123456789)).toBe(true);
  });

  it('treats a group without observations as no gap, and decides nothing on it: inconclusive, never accept', () => {
    expect(countGapExceedsTolerance(0, 0, 10, 10, 0.05)).toBe(false);
    expect(countGapDecision(10, 0, 0, 0, 0.05)).toBe('inconclusive');
    expect(countGapDecision(0, 0, 10, 10, 0.05)).toBe('inconclusive');
    expect(countGapDecision(0, 0, 0, 0, 0.05)).toBe('inconclusive');
  });
});

describe('compareCountDifference(countA, positivesA, countB, positivesB, tolerance)', () => {
  it('is 0 for a difference of exactly the tolerance, either sign (8/20 - 7/20 = 0.05)', () => {
    // python3: Fraction(8,20) - Fraction(7,20) - Fraction('0.05') == 0
    expect(compareCountDifference(20, 7, 20, 8, 0.05)).toBe(0);
    expect(compareCountDifference(20, 8, 20, 7, -0.05)).toBe(0);
    expect(compareCountDifference(20, 7, 20, 9, 0.05)).toBe(1);
    expect(compareCountDifference(20, 8, 20, 6, -0.05)).toBe(-1);
  });

  it('decides in BigInt when the products pass 2^53 (counts near 1e8)', () => {
    // python3 with fractions.Fraction: pb = floor((12345678/123456789 + 0.05) * 98765432) = 14814814;
    // the signs of pb/nb - pa/na - 0.05 at pb and pb + 1 are -1 and +1.
    expect(compareCountDifference(123456789, 12345678, 98765432, 14814814, 0.05)).toBe(-1);
    expect(compareCountDifference(123456789, 12345678, 98765432, 14814815, 0.05)).toBe(1);
    expect(compareCountDifference(98765432, 14814815, 123456789, 12345678, -0.05)).toBe(-1);
  });
});

import { describe, expect, it } from 'vitest';
import { createCryptoRandom } from '../../src/util/crypto-random.js';

describe('createCryptoRandom()', () => {
  it('gives numbers in [0, 1) that two generators never repeat', () => {
    const a = createCryptoRandom();
    const b = createCryptoRandom();
    const streamA = Array.from({ length: 2000 }, () => a());
    const streamB = Array.from({ length: 2000 }, () => b());
    for (const value of streamA) expect(value >= 0 && value < 1).toBe(true);
    // 53-bit draws: a repeat between 4,000 values has probability about 2^-31.
    expect(new Set([...streamA, ...streamB]).size).toBe(4000);
  });

  it(
    'is uniform over ten bins (chi-square, 9 degrees of freedom, 1 - 1e-6 quantile 44.81 from ' +
      'scipy.stats.chi2.ppf(0.999999, 9), so a false alarm is one run in a million)',
    () => {
      const random = createCryptoRandom();
      const draws = 100_000;
      const bins = new Array(10).fill(0);
      for (let i = 0; i < draws; i++) bins[Math.floor(random() * 10)]++;
      const expected = draws / 10;
      const chiSquare = bins.reduce((sum, count) => sum + (count - expected) ** 2 / expected, 0);
      expect(chiSquare).toBeLessThan(44.81);
    },
  );
});

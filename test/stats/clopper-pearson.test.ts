import { describe, expect, it } from 'vitest';
import { clopperPearsonLower, clopperPearsonUpper, largestCountBelow } from '../../src/stats/clopper-pearson.js';
import { logGamma } from '../../src/stats/log-gamma.js';
import { regularizedIncompleteBeta } from '../../src/stats/regularized-incomplete-beta.js';

describe('logGamma(x)', () => {
  it('logGamma(x) matches math.lgamma at 0.3, 10.5, 1e5 and is 0 at 1 and 2', () => {
    // python3 -c "import math; print(math.lgamma(0.3), math.lgamma(10.5), math.lgamma(1e5))"
    expect(logGamma(0.3)).toBeCloseTo(1.0957979948180752, 14);
    expect(logGamma(10.5)).toBeCloseTo(13.940625219403763, 13);
    expect(logGamma(1e5) / 1051287.7089736566 - 1).toBeLessThan(1e-15);
    expect(Math.abs(logGamma(1))).toBeLessThan(1e-15);
    expect(Math.abs(logGamma(2))).toBeLessThan(1e-15);
  });
});

describe('regularizedIncompleteBeta(x, a, b)', () => {
  it('matches scipy.special.betainc on both sides of the mean', () => {
    // python3 -c "from scipy.special import betainc; print(betainc(2.5,3.5,0.3), betainc(200,3800,0.05),
    // betainc(0.5,0.5,0.999))"
    expect(regularizedIncompleteBeta(0.3, 2.5, 3.5)).toBeCloseTo(0.29675298929566646, 13);
    // Parameters in the thousands: the log-gamma differences (about 3e4) leave about 1e-12.
    expect(regularizedIncompleteBeta(0.05, 200, 3800)).toBeCloseTo(0.5086832227640804, 11);
    expect(regularizedIncompleteBeta(0.999, 0.5, 0.5)).toBeCloseTo(0.9798649583666235, 13);
    expect(regularizedIncompleteBeta(0, 2, 3)).toBe(0);
    expect(regularizedIncompleteBeta(1, 2, 3)).toBe(1);
  });

  it('regularizedIncompleteBeta(1 - p, n - k, k + 1) is the binomial distribution function', () => {
    // python3 -c "from scipy.stats import binom; print(binom.cdf(3, 50, 0.1))"
    expect(regularizedIncompleteBeta(0.9, 47, 4)).toBeCloseTo(0.250293905953308, 13);
  });
});

describe('clopperPearsonUpper(successes, trials, confidence)', () => {
  it('matches scipy.stats.beta.ppf(confidence, k + 1, n - k)', () => {
    // python3 -c "from scipy.stats import beta; print(beta.ppf(0.95,201,3800), beta.ppf(0.95,1,100))"
    expect(clopperPearsonUpper(200, 4000, 0.95)).toBeCloseTo(0.05604197705347632, 12);
    expect(clopperPearsonUpper(0, 100, 0.95)).toBeCloseTo(0.029513049607039925, 12);
    expect(clopperPearsonUpper(7, 7, 0.95)).toBe(1);
  });

  it(
    'clopperPearsonLower(successes, trials, confidence) matches beta.ppf(1 - confidence, k, n - k + 1) and is 0 ' +
      'at 0 successes',
    () => {
      // python3 -c "from scipy.stats import beta; print(beta.ppf(0.025,5,16))"
      expect(clopperPearsonLower(5, 20, 0.975)).toBeCloseTo(0.08657146910143461, 12);
      expect(clopperPearsonLower(0, 20, 0.975)).toBe(0);
    },
  );

  it('largestCountBelow(4000, 0.05, 0.95) is 177, the largest k with beta.ppf(0.95, k+1, 4000-k) <= 0.05', () => {
    // python3: max(k for k in range(400) if beta.ppf(0.95, k+1, 4000-k) <= 0.05) -> 177
    expect(largestCountBelow(4000, 0.05, 0.95)).toBe(177);
    expect(largestCountBelow(10, 0.01, 0.95)).toBe(-1);
  });
});

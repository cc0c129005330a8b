import { describe, expect, it } from 'vitest';
import { bernoulliGlrKernel } from '../../../src/stats/bernoulli-glr.js';
import { gaussianGlrFromResiduals } from '../../../src/stats/gaussian-glr.js';
import {
  bernoulliConstrainedRates,
  bernoulliPairFaceDeficit,
  bernoulliRateDeficit,
  multiGroupBernoulliGlr,
  multiGroupBernoulliGlrKernel,
} from '../../../src/stats/multi-group/multi-group-bernoulli-glr.js';
import {
  gaussianConstrainedCost,
  multiGroupGaussianGlr,
  multiGroupGaussianGlrKernel,
} from '../../../src/stats/multi-group/multi-group-gaussian-glr.js';
import { InputError } from '../../../src/util/errors.js';
import { createRandom, randomInt } from '../../../src/util/random.js';

/** Bernoulli log-likelihood of K groups at `rates` (0 log 0 = 0). */
function logLikelihood(counts: Float64Array, positives: Float64Array, rates: ArrayLike<number>): number {
  let value = 0;
  for (let g = 0; g < counts.length; g++) {
    if (positives[g] > 0) value += positives[g] * Math.log(rates[g]);
    if (counts[g] > positives[g]) value += (counts[g] - positives[g]) * Math.log(1 - rates[g]);
  }
  return value;
}

describe('multiGroupBernoulliGlrKernel(counts, positives, 2, 1, tolerance)', () => {
  it('equals the two-group bernoulliGlrKernel to 1e-12 (relative) on 20,000 random cases', () => {
    const random = createRandom('multi-group two-group bernoulli');
    let worst = 0;
    for (let trial = 0; trial < 20000; trial++) {
      const countA = 1 + randomInt(random, trial % 3 === 0 ? 8 : 2000);
      const countB = 1 + randomInt(random, trial % 5 === 0 ? 8 : 2000);
      const positivesA = randomInt(random, countA + 1);
      const positivesB = randomInt(random, countB + 1);
      const tolerance = [0.01, 0.05, 0.1, 0.3, 0.9][trial % 5];
      const two = bernoulliGlrKernel(countA, positivesA, countB, positivesB, tolerance);
      const many = multiGroupBernoulliGlrKernel(
        Float64Array.of(countA, countB),
        Float64Array.of(positivesA, positivesB),
        2,
        1,
        tolerance,
      );
      if (two === many) continue;
      const error = Math.abs(two - many) / Math.max(1, Math.abs(two));
      worst = Math.max(worst, error);
    }
    expect(worst).toBeLessThan(1e-12);
  });
});

describe('multiGroupGaussianGlrKernel(counts, means, W, 2, 1, tolerance)', () => {
  it('equals gaussianGlrFromResiduals to 1e-12 (relative) on 20,000 random cases', () => {
    const random = createRandom('multi-group two-group gaussian');
    let worst = 0;
    for (let trial = 0; trial < 20000; trial++) {
      const countA = 1 + randomInt(random, 500);
      const countB = 1 + randomInt(random, 500);
      const meanA = random();
      const meanB = random();
      const residual = trial % 7 === 0 ? 0 : random() * (countA + countB) * 0.1;
      const tolerance = [0.01, 0.05, 0.2][trial % 3];
      const two = gaussianGlrFromResiduals(countA, countB, meanB - meanA, residual, tolerance);
      const many = multiGroupGaussianGlrKernel(
        Float64Array.of(countA, countB),
        Float64Array.of(meanA, meanB),
        residual,
        2,
        1,
        tolerance,
      );
      if (two === many) continue;
      worst = Math.max(worst, Math.abs(two - many) / Math.max(1, Math.abs(two)));
    }
    expect(worst).toBeLessThan(1e-12);
  });
});

describe('bernoulliConstrainedRates(counts, positives, K, scale, shift, rates)', () => {
  it('beats every window start of a fine grid, and its rates fit the window (K = 3..10, difference and ratio)', () => {
    const random = createRandom('multi-group constrained rates grid');
    for (let trial = 0; trial < 200; trial++) {
      const groupCount = 3 + (trial % 8);
      const counts = new Float64Array(groupCount);
      const positives = new Float64Array(groupCount);
      for (let g = 0; g < groupCount; g++) {
        counts[g] = 1 + randomInt(random, 300);
        positives[g] = randomInt(random, counts[g] + 1);
      }
      const ratio = trial % 2 === 1;
      const scale = ratio ? 1 / 0.8 : 1;
      const shift = ratio ? 0 : 0.05;
      const rates = new Float64Array(groupCount);
      const best = bernoulliConstrainedRates(counts, positives, groupCount, scale, shift, rates);
      const lowest = Math.min(...rates);
      expect(Math.max(...rates)).toBeLessThanOrEqual(scale * lowest + shift + 1e-12);
      const trialRates = new Float64Array(groupCount);
      let bestOnGrid = Number.NEGATIVE_INFINITY;
      for (let step = 0; step <= 2000; step++) {
        const start = (step / 2000) * (ratio ? 1 : 1 - shift);
        for (let g = 0; g < groupCount; g++) {
          const estimate = positives[g] / counts[g];
          trialRates[g] = Math.min(Math.max(estimate, start), scale * start + shift);
        }
        bestOnGrid = Math.max(bestOnGrid, logLikelihood(counts, positives, trialRates));
      }
      expect(bestOnGrid).toBeLessThanOrEqual(best + 1e-9);
    }
  });
});

describe('gaussianConstrainedCost(counts, means, K, scale, shift, constrained)', () => {
  it('is no larger than the cost of any window start of a fine grid', () => {
    const random = createRandom('multi-group gaussian grid');
    for (let trial = 0; trial < 200; trial++) {
      const groupCount = 3 + (trial % 8);
      const counts = Float64Array.from({ length: groupCount }, () => 1 + randomInt(random, 300));
      const means = Float64Array.from({ length: groupCount }, () => random());
      const constrained = new Float64Array(groupCount);
      const best = gaussianConstrainedCost(counts, means, groupCount, 1, 0.1, constrained);
      let leastOnGrid = Number.POSITIVE_INFINITY;
      for (let step = 0; step <= 2000; step++) {
        const start = step / 2000 - 0.1;
        let cost = 0;
        for (let g = 0; g < groupCount; g++) {
          const clip = Math.min(Math.max(means[g], start), start + 0.1);
          cost += counts[g] * (means[g] - clip) ** 2;
        }
        leastOnGrid = Math.min(leastOnGrid, cost);
      }
      expect(best).toBeLessThanOrEqual(leastOnGrid + 1e-12);
    }
  });
});

describe('multiGroupBernoulliGlr(counts, positives, aggregation, bound)', () => {
  it('is positive for a clear violation, negative for clear compliance, for both aggregations', () => {
    expect(multiGroupBernoulliGlr([400, 300, 50], [160, 60, 30], 'difference', 0.05)).toBeGreaterThan(5);
    expect(multiGroupBernoulliGlr([400, 300, 500], [200, 150, 250], 'difference', 0.1)).toBeLessThan(-1);
    expect(multiGroupBernoulliGlr([400, 300, 500], [200, 90, 250], 'ratio', 0.8)).toBeGreaterThan(5);
    expect(multiGroupBernoulliGlr([400, 300, 500], [200, 150, 250], 'ratio', 0.8)).toBeLessThan(-1);
  });
  it('adds the evidence of a third group that agrees: a K = 3 violation exceeds its worst pair', () => {
    const pair = multiGroupBernoulliGlr([400, 300], [160, 90], 'difference', 0.05);
    const three = multiGroupBernoulliGlr([400, 300, 300], [160, 90, 90], 'difference', 0.05);
    expect(three).toBeGreaterThan(pair);
  });
  it('throws InputError naming the group for a bad count, and for one group', () => {
    expect(() => multiGroupBernoulliGlr([10, 0], [1, 0], 'difference', 0.05)).toThrow(/counts\[1\]/);
    expect(() => multiGroupBernoulliGlr([10, 10], [1, 11], 'difference', 0.05)).toThrow(/positives\[1\]/);
    expect(() => multiGroupBernoulliGlr([10], [1], 'difference', 0.05)).toThrow(InputError);
    expect(() => multiGroupBernoulliGlr([10, 10], [1, 1], 'ratio', 1.2)).toThrow(/ratio/);
  });
  it('handles all-zero and all-one counts without NaN', () => {
    for (const aggregation of ['difference', 'ratio'] as const) {
      for (const positives of [
        [0, 0, 0],
        [5, 5, 5],
        [0, 5, 3],
        [5, 0, 0],
      ]) {
        expect(Number.isNaN(multiGroupBernoulliGlr([5, 5, 5], positives, aggregation, 0.5))).toBe(false);
      }
    }
  });
});

describe('multiGroupGaussianGlr(sums, aggregation, bound)', () => {
  it('equals the two-group gaussianGlr example at K = 2 and grows with a third violating group', () => {
    const sums = { counts: [3, 3], sums: [1.2, 2.1], sumsOfSquares: [0.6, 1.6] };
    const residual = 0.6 - 1.44 / 3 + (1.6 - 4.41 / 3);
    expect(multiGroupGaussianGlr(sums, 'difference', 0.05)).toBeCloseTo(
      gaussianGlrFromResiduals(3, 3, 0.3, residual, 0.05),
      12,
    );
    expect(() => multiGroupGaussianGlr({ counts: [3], sums: [1], sumsOfSquares: [1] }, 'difference', 0.1)).toThrow(
      InputError,
    );
  });
});

describe('bernoulliPairFaceDeficit(si, ni, sj, nj, scale, shift)', () => {
  it('equals the least deficit on a 200,001-point grid of the face, for the ratio and difference faces', () => {
    const random = createRandom('pair face grid');
    for (let trial = 0; trial < 60; trial++) {
      const ni = 1 + randomInt(random, 400);
      const nj = 1 + randomInt(random, 400);
      const si = randomInt(random, ni + 1);
      const sj = Math.min(nj, Math.round((si / ni) * nj * (0.85 + 0.15 * random())));
      const [scale, shift] = trial % 2 === 0 ? [1 / 0.8, 0] : [1, 0.05];
      if (sj / nj > scale * (si / ni) + shift) continue;
      const solved = bernoulliPairFaceDeficit(si, ni, sj, nj, scale, shift);
      let least = Number.POSITIVE_INFINITY;
      const last = (1 - shift) / scale;
      for (let step = 0; step <= 200000; step++) {
        const x = (step / 200000) * last;
        least = Math.min(least, bernoulliRateDeficit(si, ni, x) + bernoulliRateDeficit(sj, nj, scale * x + shift));
      }
      expect(solved).toBeLessThanOrEqual(least + 1e-12);
      expect(solved).toBeGreaterThan(least - 1e-7 * (1 + least));
    }
  });
});

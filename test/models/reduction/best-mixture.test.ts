import { describe, expect, it } from 'vitest';
import { bestMixture } from '../../../src/models/reduction/best-mixture.js';
import { createRandom } from '../../../src/util/random.js';

function objective(
  weights: ArrayLike<number>,
  errors: number[],
  moments: number[][],
  bound: number,
  tolerance: number,
) {
  let error = 0;
  const gamma = new Array(moments[0].length).fill(0);
  for (let t = 0; t < errors.length; t++) {
    error += weights[t] * errors[t];
    for (let k = 0; k < gamma.length; k++) gamma[k] += weights[t] * moments[t][k];
  }
  return error + bound * Math.max(0, ...gamma.map((g) => g - tolerance));
}

describe('bestMixture(errors, moments, bound, tolerance)', () => {
  it('puts all weight on a feasible classifier with the lowest error', () => {
    const weights = bestMixture([0.2, 0.1, 0.3], [[0.01], [0.04], [0]], 10, 0.05);
    expect(Array.from(weights)).toEqual([0, 1, 0]);
  });

  it('mixes two classifiers just enough to meet the constraint', () => {
    // e(q) = 0.3 - 0.2 q, gamma(q) = 0.3 q - 0.1: the tolerance 0.05 binds at q = 0.5,
    // and past it the objective rises with slope -0.2 + 10 * 0.3 > 0.
    const weights = bestMixture([0.1, 0.3], [[0.2], [-0.1]], 10, 0.05);
    expect(weights[0]).toBeCloseTo(0.5, 12);
    expect(weights[1]).toBeCloseTo(0.5, 12);
  });

  it('matches a fine grid search over three classifiers with two-group parity moments', () => {
    // Demographic parity with groups of shares 0.6 / 0.4: gamma = [-0.4 D, 0.4 D, 0.6 D, -0.6 D].
    const random = createRandom('mixture-grid');
    for (let trial = 0; trial < 20; trial++) {
      const errors = [0, 1, 2].map(() => 0.1 + 0.3 * random());
      const moments = [0, 1, 2].map(() => {
        const difference = 0.4 * random() - 0.1;
        return [-0.4 * difference, 0.4 * difference, 0.6 * difference, -0.6 * difference];
      });
      const weights = bestMixture(errors, moments, 50, 0.02);
      expect(weights.reduce((sum, w) => sum + w, 0)).toBeCloseTo(1, 12);
      const found = objective(weights, errors, moments, 50, 0.02);
      let gridBest = Number.POSITIVE_INFINITY;
      const steps = 200;
      for (let i = 0; i <= steps; i++) {
        for (let j = 0; i + j <= steps; j++) {
          gridBest = Math.min(
            gridBest,
            objective([i / steps, j / steps, 1 - (i + j) / steps], errors, moments, 50, 0.02),
          );
        }
      }
      expect(found).toBeLessThanOrEqual(gridBest + 1e-12);
    }
  });
});

import { describe, expect, it } from 'vitest';
import {
  FAIRLEARN_DEFAULT_DIFFERENCE_BOUND,
  fairlearnReduction,
  paperAModelPreset,
} from '../../../papers/paper-a/models.js';

describe('fairlearnReduction(eps, maxIterations)', () => {
  it(
    "reads paper A's eps as Fairlearn's: constraint bound DemographicParity's default 0.01, multiplier bound B " +
      '= 1/eps',
    () => {
      // Fairlearn >= 0.5: ExponentiatedGradient(..., eps) sets B = 1/eps; DemographicParity(difference_bound=0.01) by
      // default.
      expect(FAIRLEARN_DEFAULT_DIFFERENCE_BOUND).toBe(0.01);
      expect(fairlearnReduction(0.02, 10)).toEqual({
        differenceBound: 0.01,
        multiplierBound: 50,
        maxIterations: 10,
        mixture: 'linear-program',
      });
      expect(fairlearnReduction(0.05, 2)).toEqual({
        differenceBound: 0.01,
        multiplierBound: 20,
        maxIterations: 2,
        mixture: 'linear-program',
      });
    },
  );

  it(
    'is what the Robust-DP (eps 0.02, 10 iterations) and Unstable-DP (eps 0.05, 2 iterations) presets train ' +
      '(paper A section 4.2)',
    () => {
      const reductionOf = (name: string) => {
        const preset = paperAModelPreset(name);
        return preset.type === 'mlp' ? preset.spec.reduction : null;
      };
      expect(reductionOf('robust-dp')).toEqual(fairlearnReduction(0.02, 10));
      expect(reductionOf('unstable-dp')).toEqual(fairlearnReduction(0.05, 2));
      expect(reductionOf('robust-base')).toBeNull();
    },
  );
});

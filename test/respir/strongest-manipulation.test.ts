import { describe, expect, it } from 'vitest';
import { createPassProbabilityEvaluator } from '../../src/respir/exact-pass-probability.js';
import { strongestManipulation } from '../../src/respir/strongest-manipulation.js';

describe('strongestManipulation(evaluator, positives, flips)', () => {
  const population = {
    groupSizes: [300, 200] as const,
    eligibleSizes: [300, 200] as const,
    eligiblePositives: [60, 80] as const,
  };

  it('is the manipulation with that many flips of highest exact pass probability (every split and direction)', () => {
    const evaluator = createPassProbabilityEvaluator({
      population,
      auditSetSize: 150,
      design: 'uniform',
      tolerance: 0.05,
    });
    for (const flips of [0, 5, 20, 45]) {
      const result = strongestManipulation(evaluator, [60, 80], flips);
      expect(result.flips).toBe(flips);
      const value = evaluator.outcomes(60 + result.groupZeroRaised, 80 - result.groupOneLowered).pass.value;
      for (let a = -flips; a <= flips; a++) {
        for (const b of [flips - Math.abs(a), -(flips - Math.abs(a))]) {
          expect(evaluator.outcomes(60 + a, 80 + b).pass.value).toBeLessThanOrEqual(value);
        }
      }
    }
  });

  it(
    'spreads the flips evenly over the groups on ties (here every manipulation passes whenever both groups are ' +
      'in S)',
    () => {
      const evaluator = createPassProbabilityEvaluator({
        population,
        auditSetSize: 150,
        design: 'proportional',
        tolerance: 1,
      });
      const result = strongestManipulation(evaluator, [60, 80], 6);
      expect(Math.abs(result.groupZeroRaised)).toBe(3);
      expect(Math.abs(result.groupOneLowered)).toBe(3);
    },
  );
});

import { describe, expect, it } from 'vitest';
import { checkMultiGroupBound } from '../../../src/respir/multi-group/multi-group-bound-check.js';
import {
  boundCheckSetting,
  MULTI_GROUP_BOUND_CHECK_CASES,
} from '../../../src/respir/multi-group/multi-group-bound-check-cases.js';
import { createRandom } from '../../../src/util/random.js';

describe('checkMultiGroupBound(setting, random)', () => {
  for (const checkCase of MULTI_GROUP_BOUND_CHECK_CASES) {
    it(`${checkCase.name}: passes with probability ≥ 1 − δ where the condition holds`, () => {
      const result = checkMultiGroupBound(boundCheckSetting(checkCase, 2000), createRandom(checkCase.name));
      expect(result.flips).toBeGreaterThan(0); // the model failed before the manipulation
      expect(result.conditionDraws).toBeGreaterThan(1000); // the condition holds on most draws
      expect(result.conditionPasses / result.conditionDraws).toBeGreaterThanOrEqual(checkCase.passProbability);
    });
  }

  it('fails where the condition is dropped: C on the edge of ε itself (margin 0) passes far less than 1 − δ', () => {
    // The control: the same K = 3 provider aiming at ε instead of ε − γ. Its S's max-gap
    // exceeds ε about as often as not, so a check that could not fail would pass this too.
    const setting = { ...boundCheckSetting(MULTI_GROUP_BOUND_CHECK_CASES[1], 2000), margin: 'none' as const };
    const result = checkMultiGroupBound(setting, createRandom('no-margin'));
    expect(result.target).toBe(0.25);
    expect(result.passes / 2000).toBeLessThan(0.8);
  });
});

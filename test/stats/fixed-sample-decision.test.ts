import { describe, expect, it } from 'vitest';
import { fixedSampleDecision } from '../../src/stats/fixed-sample-decision.js';

describe('fixedSampleDecision(gap, tolerance)', () => {
  it('rejects when |gap| exceeds the tolerance, either sign, and accepts at or below it', () => {
    expect(fixedSampleDecision(0.07, 0.05)).toBe('reject');
    expect(fixedSampleDecision(-0.07, 0.05)).toBe('reject');
    expect(fixedSampleDecision(0.05, 0.05)).toBe('accept');
    expect(fixedSampleDecision(-0.01, 0.05)).toBe('accept');
  });

  it('is inconclusive on a NaN gap (a group without observations), never accept', () => {
    expect(fixedSampleDecision(Number.NaN, 0.05)).toBe('inconclusive');
  });
});

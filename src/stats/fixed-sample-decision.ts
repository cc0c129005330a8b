/**
 * The decision of a one-shot audit: reject (violation), accept (compliance), or
 * inconclusive when a group has no observation (no verdict without evidence).
 */
export type FixedSampleDecision = 'reject' | 'accept' | 'inconclusive';

/**
 * fixedSampleDecision(gap, tolerance) is the plug-in decision of the fixed-sample
 * baseline of paper A section 5.4: reject when the empirical gap |mean_b - mean_a| on
 * the first min(B, pool) rows exceeds the tolerance, accept otherwise. A NaN gap (a
 * group without observations) measured nothing: inconclusive, never accept. O(1).
 * A floating comparison, for means of scores or logits; a gap of hard decisions is a
 * difference of count ratios and is compared exactly by countGapDecision
 * (count-gap-comparison.ts) instead.
 * @param gap the plug-in gap of a fixed sample (NaN when a group is missing)
 * @param tolerance the tolerance it is compared with
 * @returns reject when |gap| > tolerance, accept otherwise, inconclusive for NaN
 * @example
 * fixedSampleDecision(0.08, 0.05); // 'reject'
 */
export function fixedSampleDecision(gap: number, tolerance: number): FixedSampleDecision {
  if (Number.isNaN(gap)) return 'inconclusive';
  return Math.abs(gap) > tolerance ? 'reject' : 'accept';
}

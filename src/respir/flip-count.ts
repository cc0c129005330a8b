/**
 * ceilFlipCount(value) is ⌈value⌉ for a flip count computed in floating point, with a
 * relative guard of 1e-9 so that a product such as (0.05 − 0.04)·200, which is
 * 2.0000000000000018 in doubles, counts as the 2 flips the exact arithmetic gives.
 * Negative values give 0. O(1).
 */
export function ceilFlipCount(value: number): number {
  if (!(value > 0)) return 0;
  return Math.ceil(value - 1e-9 * Math.max(1, value));
}

/**
 * flipsToLowerGap(gap, targetGap, minorityGroupSize) is the bound shared by paper B's
 * Proposition 1 and Theorems 1, 3 and 4: one flip moves a group rate, hence the gap, by
 * at most 1/minorityGroupSize, so bringing |gap| down to targetGap takes at least
 * ⌈(|gap| − targetGap)·minorityGroupSize⌉ flips (0 when |gap| ≤ targetGap). O(1).
 */
export function flipsToLowerGap(gap: number, targetGap: number, minorityGroupSize: number): number {
  return ceilFlipCount((Math.abs(gap) - targetGap) * minorityGroupSize);
}

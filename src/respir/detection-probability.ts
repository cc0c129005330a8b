/**
 * detectionProbability(flips, setSize, canaryEffectiveness, canaries) is paper B's
 * Eq. 3: 1 − (1 − q·m/n)^k, the chance that at least one of k canaries, each
 * indistinguishable to the provider with probability q, is among the m modified
 * outputs. Pass setSize = n = |S| for the vanilla audit and N = |C| for respir
 * (paper B §4.3: "we substitute n by N"). m/n is capped at 1. O(1) (one power).
 * @param flips outputs the provider changed
 * @param setSize |S|, the audit set's size
 * @param canaryEffectiveness the chance that a canary hit by a flip is noticed
 * @param canaries canaries planted in S
 * @returns the probability that at least one canary catches the manipulation
 * @example
 * detectionProbability(50, 1000, 0.8, 20);
 */
export function detectionProbability(
  flips: number,
  setSize: number,
  canaryEffectiveness: number,
  canaries: number,
): number {
  const modifiedShare = Math.min(1, flips / setSize);
  return 1 - (1 - canaryEffectiveness * modifiedShare) ** canaries;
}

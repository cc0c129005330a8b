import { studentTUpperTail } from './student-t-distribution.js';
import type { TwoSampleDifference } from './two-sample-difference.js';

/**
 * equivalenceTest(result, margin) is the two one-sided tests (TOST, Schuirmann 1987) of
 * "the true difference lies within ±margin": the larger of the p-values of H₀: Δ <= −m
 * (statistic (d + m)/se) and H₀: Δ >= m (statistic (m − d)/se), each on the result's t
 * (or normal) reference distribution. A small p-value shows the change is smaller than
 * the margin. Without spread: 0 when |d| < m, else 1. Kernel: margin > 0. O(two tails).
 *
 * @param result - a two-sample test's result (its difference, standard error and degrees of freedom)
 * @param margin - the largest change that counts as no change
 * @returns the TOST p-value
 * @example equivalenceTest({ difference: 0.01, standardError: 0.01, degreesOfFreedom: Infinity, ... }, 0.05)
 *   // 2.0e-5 (= P(Z > 4))
 */
export function equivalenceTest(result: TwoSampleDifference, margin: number): number {
  const { difference, standardError, degreesOfFreedom } = result;
  if (standardError === 0) return Math.abs(difference) < margin ? 0 : 1;
  const lower = studentTUpperTail((difference + margin) / standardError, degreesOfFreedom);
  const upper = studentTUpperTail((margin - difference) / standardError, degreesOfFreedom);
  return Math.max(lower, upper);
}

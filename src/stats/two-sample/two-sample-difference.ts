import { studentTQuantile } from './student-t-distribution.js';

/** What a two-sample test of one statistic says: the difference head − base, its error, and the p-value of "no
 * difference". */
export interface TwoSampleDifference {
  /** The statistic in the head sample minus the base sample. */
  difference: number;
  /** The standard error of the difference (unpooled), for intervals and equivalence. */
  standardError: number;
  /** Degrees of freedom of the reference t distribution (Infinity: standard normal). */
  degreesOfFreedom: number;
  /** Two-sided p-value of the hypothesis that the two samples' statistic is the same. */
  pValue: number;
  /** The test used, in words ("score test for two proportions", "paired t-test", ...). */
  test: string;
}

/**
 * differenceInterval(result, confidence) is difference ± q·standardError, q the
 * (1 + confidence)/2 quantile of t with the result's degrees of freedom (normal when
 * infinite). O(one quantile).
 *
 * @param result - a two-sample test's result
 * @param confidence - the interval's coverage in (0, 1)
 * @returns [low, high]
 * @example differenceInterval({ difference: 1, standardError: 0.5, degreesOfFreedom: Infinity, ... }, 0.95)
 *   // [0.02, 1.98]
 */
export function differenceInterval(result: TwoSampleDifference, confidence: number): [number, number] {
  if (result.standardError === 0) return [result.difference, result.difference];
  const q = studentTQuantile((1 + confidence) / 2, result.degreesOfFreedom);
  return [result.difference - q * result.standardError, result.difference + q * result.standardError];
}

import { studentTUpperTail } from './student-t-distribution.js';
import type { TwoSampleDifference } from './two-sample-difference.js';

/** The count, mean and sample variance (n − 1 denominator) of one sample. */
export interface SampleMoments {
  count: number;
  mean: number;
  variance: number;
}

/**
 * sampleMoments(values) is the count, mean and sample variance of the finite values
 * (NaN skipped), by Welford's update. O(n).
 *
 * @example sampleMoments([1, 2, 3, 4]) // { count: 4, mean: 2.5, variance: 1.6666666666666667 }
 */
export function sampleMoments(values: ArrayLike<number>): SampleMoments {
  let count = 0;
  let mean = 0;
  let squares = 0;
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (Number.isNaN(value)) continue;
    count++;
    const delta = value - mean;
    mean += delta / count;
    squares += delta * (value - mean);
  }
  return { count, mean: count === 0 ? Number.NaN : mean, variance: count > 1 ? squares / (count - 1) : 0 };
}

/**
 * welchTest(base, head) is Welch's unequal-variance t-test of two means
 * (scipy.stats.ttest_ind(head, base, equal_var=False)), degrees of freedom by
 * Welch–Satterthwaite. Two samples without spread give p = 1 when their means are equal
 * and 0 otherwise. Kernel: counts >= 2. O(one incomplete beta).
 *
 * @returns the difference of means head − base, its standard error, degrees of freedom and p-value
 * @example welchTest({ count: 5, mean: 3, variance: 2.5 }, { count: 6, mean: 5, variance: 3.5 }).pValue
 *   // 0.0684...
 */
export function welchTest(base: SampleMoments, head: SampleMoments): TwoSampleDifference {
  const baseShare = base.variance / base.count;
  const headShare = head.variance / head.count;
  const standardError = Math.sqrt(baseShare + headShare);
  const difference = head.mean - base.mean;
  const test = 'Welch t-test';
  if (standardError === 0) {
    return {
      difference,
      standardError,
      degreesOfFreedom: Number.POSITIVE_INFINITY,
      pValue: difference === 0 ? 1 : 0,
      test,
    };
  }
  const degreesOfFreedom =
    (baseShare + headShare) ** 2 / (baseShare ** 2 / (base.count - 1) + headShare ** 2 / (head.count - 1));
  const pValue = Math.min(1, 2 * studentTUpperTail(Math.abs(difference) / standardError, degreesOfFreedom));
  return { difference, standardError, degreesOfFreedom, pValue, test };
}

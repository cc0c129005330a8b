import { studentTUpperTail } from './student-t-distribution.js';
import type { TwoSampleDifference } from './two-sample-difference.js';
import { sampleMoments } from './welch-test.js';

/**
 * pairedTTest(differences) is the paired t-test of head − base differences of matched
 * replicates (scipy.stats.ttest_rel(head, base)): the mean difference over its standard
 * error, n − 1 degrees of freedom. Differences without spread give p = 1 when they are
 * all zero and 0 otherwise. Kernel: at least two finite differences. O(n).
 *
 * @param differences - head − base for each matched replicate (NaN skipped)
 * @returns the mean difference, its standard error and the p-value
 * @example pairedTTest([1, 2, 0, 1, 3]).pValue // 0.07048399691021993
 */
export function pairedTTest(differences: ArrayLike<number>): TwoSampleDifference {
  const moments = sampleMoments(differences);
  const standardError = Math.sqrt(moments.variance / moments.count);
  const difference = moments.mean;
  const test = 'paired t-test';
  if (standardError === 0) {
    return {
      difference,
      standardError,
      degreesOfFreedom: Number.POSITIVE_INFINITY,
      pValue: difference === 0 ? 1 : 0,
      test,
    };
  }
  const degreesOfFreedom = moments.count - 1;
  const pValue = Math.min(1, 2 * studentTUpperTail(Math.abs(difference) / standardError, degreesOfFreedom));
  return { difference, standardError, degreesOfFreedom, pValue, test };
}

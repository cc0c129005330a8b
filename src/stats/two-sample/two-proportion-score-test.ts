import { normalUpperTail } from './normal-distribution.js';
import type { TwoSampleDifference } from './two-sample-difference.js';

/**
 * twoProportionScoreTest(baseSuccesses, baseTrials, headSuccesses, headTrials) compares
 * two independent binomial proportions by the score test (pooled z; equal to Pearson's
 * chi-square test without continuity correction, scipy.stats.chi2_contingency(...,
 * correction=False)). All-zero or all-one counts in both give p = 1. The standard error
 * returned is the unpooled one, for intervals. Kernel: integers 0 <= successes <= trials,
 * trials >= 1. O(1).
 *
 * @returns the difference of proportions head − base, its unpooled standard error and the p-value
 * @example twoProportionScoreTest(45, 100, 60, 100).pValue // 0.03389485352468924
 */
export function twoProportionScoreTest(
  baseSuccesses: number,
  baseTrials: number,
  headSuccesses: number,
  headTrials: number,
): TwoSampleDifference {
  const base = baseSuccesses / baseTrials;
  const head = headSuccesses / headTrials;
  const pooled = (baseSuccesses + headSuccesses) / (baseTrials + headTrials);
  const pooledError = Math.sqrt(pooled * (1 - pooled) * (1 / baseTrials + 1 / headTrials));
  const difference = head - base;
  const standardError = Math.sqrt((base * (1 - base)) / baseTrials + (head * (1 - head)) / headTrials);
  const pValue = pooledError === 0 ? 1 : Math.min(1, 2 * normalUpperTail(Math.abs(difference) / pooledError));
  return {
    difference,
    standardError,
    degreesOfFreedom: Number.POSITIVE_INFINITY,
    pValue,
    test: 'score test for two proportions',
  };
}

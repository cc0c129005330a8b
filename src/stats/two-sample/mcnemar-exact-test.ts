import { regularizedIncompleteBeta } from '../regularized-incomplete-beta.js';
import type { TwoSampleDifference } from './two-sample-difference.js';

/**
 * mcnemarExactTest(baseOnly, headOnly, pairs) is McNemar's exact test of a binary outcome
 * on matched pairs: of the discordant pairs (true in base only, or in head only), the
 * count in head only is Bin(baseOnly + headOnly, ½) when nothing changed; two-sided
 * p = min(1, 2·P(X <= min)) (scipy.stats.binomtest(headOnly, baseOnly + headOnly, 0.5)
 * .pvalue, which is the same for p = ½). The difference of proportions is
 * (headOnly − baseOnly)/pairs, its standard error √(b + c − (c − b)²/n)/n. No discordant
 * pair gives p = 1. Kernel: non-negative integers, pairs >= baseOnly + headOnly, pairs >= 1.
 * O(one incomplete beta).
 *
 * @returns the paired difference of proportions, its standard error and the exact p-value
 * @example mcnemarExactTest(3, 12, 100).pValue // 0.03515625
 */
export function mcnemarExactTest(baseOnly: number, headOnly: number, pairs: number): TwoSampleDifference {
  const discordant = baseOnly + headOnly;
  const difference = (headOnly - baseOnly) / pairs;
  const standardError = Math.sqrt(Math.max(0, discordant - (headOnly - baseOnly) ** 2 / pairs)) / pairs;
  const smaller = Math.min(baseOnly, headOnly);
  // P(Bin(n, ½) <= k) = I_{½}(n − k, k + 1).
  const tail = smaller >= discordant ? 1 : regularizedIncompleteBeta(0.5, discordant - smaller, smaller + 1);
  const pValue = discordant === 0 ? 1 : Math.min(1, 2 * tail);
  return {
    difference,
    standardError,
    degreesOfFreedom: Number.POSITIVE_INFINITY,
    pValue,
    test: 'McNemar exact test (matched seeds)',
  };
}

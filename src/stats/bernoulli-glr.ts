import { inputError } from '../util/errors.js';
import { bernoulliFaceArgmax, bernoulliFaceDeficit } from './bernoulli-face-maximum.js';
import { checkTolerance } from './check-tolerance.js';

/** Sufficient statistics of two Bernoulli samples: observations and positives per group. */
export interface BernoulliCounts {
  readonly countA: number;
  readonly positivesA: number;
  readonly countB: number;
  readonly positivesB: number;
}

/** s log(s/n) + (n - s) log((n - s)/n) with 0 log 0 = 0: the log-likelihood at the empirical rate. */
export function bernoulliMaximumLogLikelihood(positives: number, count: number): number {
  const negatives = count - positives;
  let value = 0;
  if (positives > 0) value += positives * Math.log(positives / count);
  if (negatives > 0) value += negatives * Math.log(negatives / count);
  return value;
}

/**
 * bernoulliGlrKernel(countA, positivesA, countB, positivesB, tolerance) is the exact
 * signed GLR statistic of paper A eq. 22-23 and appendix A (eq. 31-32) for
 * H0: |theta_a - theta_b| <= tolerance. With the empirical gap g = pb - pa:
 * when |g| > tolerance it is l(theta_hat) minus the maximum on the face of sign g (the
 * maximiser over the convex Theta_0 lies on that face: a chord from a point of the other
 * face to theta_hat enters Theta_0's interior with rising likelihood), >= 0;
 * otherwise it is the larger of the two face maxima minus l(theta_hat), <= 0.
 * Kernel: no validation (counts >= 1 per group, 0 < tolerance < 1). O(1) with a
 * bounded number of Newton steps.
 */
export function bernoulliGlrKernel(
  countA: number,
  positivesA: number,
  countB: number,
  positivesB: number,
  tolerance: number,
): number {
  const negativesA = countA - positivesA;
  const negativesB = countB - positivesB;
  const gap = positivesB / countB - positivesA / countA;
  // Deficits l(theta_hat) - max over each face (>= 0).
  let plusFace = Number.POSITIVE_INFINITY;
  let minusFace = Number.POSITIVE_INFINITY;
  if (gap >= -tolerance) {
    const x = bernoulliFaceArgmax(positivesA, negativesA, positivesB, negativesB, tolerance, -1);
    plusFace = bernoulliFaceDeficit(positivesA, negativesA, positivesB, negativesB, tolerance, x);
  }
  if (gap <= tolerance) {
    const x = bernoulliFaceArgmax(positivesB, negativesB, positivesA, negativesA, tolerance, -1);
    minusFace = bernoulliFaceDeficit(positivesB, negativesB, positivesA, negativesA, tolerance, x);
  }
  if (gap > tolerance) return Math.max(0, plusFace);
  if (gap < -tolerance) return Math.max(0, minusFace);
  return Math.min(0, -Math.min(plusFace, minusFace));
}

function checkCounts(counts: BernoulliCounts, where: string): void {
  const pairs: Array<[string, number, string, number]> = [
    ['countA', counts.countA, 'positivesA', counts.positivesA],
    ['countB', counts.countB, 'positivesB', counts.positivesB],
  ];
  for (const [countName, count, positivesName, positives] of pairs) {
    if (!(Number.isSafeInteger(count) && count >= 1)) {
      throw inputError({ where: `${where}: ${countName}`, expected: 'an integer >= 1', found: count });
    }
    if (!(Number.isSafeInteger(positives) && positives >= 0 && positives <= count)) {
      throw inputError({
        where: `${where}: ${positivesName}`,
        expected: `an integer in [0, ${count}]`,
        found: positives,
      });
    }
  }
}

/**
 * bernoulliGlr(counts, tolerance) returns the signed Bernoulli GLR statistic of paper A
 * (eq. 22-23, appendix A) for H0: |theta_a - theta_b| <= tolerance: positive is evidence
 * of a violation, negative of compliance, 0 on the boundary. O(1).
 * Throws InputError unless each count is an integer >= 1, each positives an integer in
 * [0, count], and tolerance in (0, 1).
 * @param counts rows and positives of groups a and b
 * @param tolerance δ in (0, 1)
 * @returns the signed GLR statistic: positive is evidence that |gap| > δ, negative that it is within δ
 * @example
 * const statistic = bernoulliGlr({ countA: 400, positivesA: 160, countB: 300, positivesB: 90 }, 0.05);
 */
export function bernoulliGlr(counts: BernoulliCounts, tolerance: number): number {
  checkCounts(counts, 'bernoulliGlr');
  checkTolerance(tolerance, 'bernoulliGlr: tolerance');
  return bernoulliGlrKernel(counts.countA, counts.positivesA, counts.countB, counts.positivesB, tolerance);
}

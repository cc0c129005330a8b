import { inputError } from '../util/errors.js';
import { checkTolerance } from './check-tolerance.js';

/** Sufficient statistics of two samples: count, sum and sum of squares per group. */
export interface GaussianSums {
  readonly countA: number;
  readonly sumA: number;
  readonly sumOfSquaresA: number;
  readonly countB: number;
  readonly sumB: number;
  readonly sumOfSquaresB: number;
}

/**
 * gaussianGlrFromResiduals(countA, countB, gap, residualSumOfSquares, tolerance) is the
 * signed Gaussian GLR for H0: |mu_a - mu_b| <= tolerance with a common variance
 * profiled out (paper A section 3.5; DESIGN.md): with n = nA + nB, the profiled
 * log-likelihood is -(n/2) log(RSS/n) - n/2, and the best fit on the boundary
 * |mu_b - mu_a| = tolerance (the near face, on either side) adds
 * (nA nB / n)(|gap| - tolerance)^2 to the free residual sum of squares RSS, so
 *   statistic = sign(|gap| - tolerance) (n/2) log(1 + (nA nB/n)(|gap| - tolerance)^2 / RSS).
 * When RSS = 0 (every group's values equal) the statistic is 0 if |gap| = tolerance and
 * +-Infinity otherwise (the limit), never NaN. Kernel: no validation. O(1).
 */
export function gaussianGlrFromResiduals(
  countA: number,
  countB: number,
  gap: number,
  residualSumOfSquares: number,
  tolerance: number,
): number {
  const excess = Math.abs(gap) - tolerance;
  if (excess === 0) return 0;
  const count = countA + countB;
  const added = ((countA * countB) / count) * excess * excess;
  const magnitude =
    residualSumOfSquares > 0 ? 0.5 * count * Math.log1p(added / residualSumOfSquares) : Number.POSITIVE_INFINITY;
  return excess > 0 ? magnitude : -magnitude;
}

/**
 * gaussianGlr(sums, tolerance) returns the signed Gaussian proxy GLR statistic of paper A
 * (score and logit access) from per-group count, sum and sum of squares; see
 * gaussianGlrFromResiduals for the closed form. The within-group residual sums of
 * squares are sumOfSquares - sum^2/count, taken as 0 when below 16 rounding errors of
 * the sum of squares (the sums cannot resolve less: use GaussianGlrStream's running
 * deviations for that). O(1).
 * Throws InputError unless each count is an integer >= 1, the sums are finite, each sum
 * of squares at least sum^2/count up to rounding, and tolerance > 0.
 * @param sums count, sum and sum of squares of the values of groups a and b
 * @param tolerance τ > 0 on the gap of means
 * @returns the signed Gaussian proxy GLR statistic (positive: evidence that |gap| > τ)
 * @example
 * const statistic = gaussianGlr({ countA: 3, sumA: 1.2, sumOfSquaresA: 0.6, countB: 3, sumB: 2.1, sumOfSquaresB: 1.6 },
 * 0.05);
 */
export function gaussianGlr(sums: GaussianSums, tolerance: number): number {
  const groups: Array<['A' | 'B', number, number, number]> = [
    ['A', sums.countA, sums.sumA, sums.sumOfSquaresA],
    ['B', sums.countB, sums.sumB, sums.sumOfSquaresB],
  ];
  const residuals: number[] = [];
  for (const [name, count, sum, sumOfSquares] of groups) {
    if (!(Number.isSafeInteger(count) && count >= 1)) {
      throw inputError({ where: `gaussianGlr: count${name}`, expected: 'an integer >= 1', found: count });
    }
    if (!Number.isFinite(sum))
      throw inputError({ where: `gaussianGlr: sum${name}`, expected: 'a finite number', found: sum });
    const residual = sumOfSquares - (sum * sum) / count;
    if (!Number.isFinite(sumOfSquares) || residual < -1e-9 * Math.max(1, sumOfSquares)) {
      throw inputError({
        where: `gaussianGlr: sumOfSquares${name}`,
        expected: `a finite number >= sum^2/count = ${(sum * sum) / count}`,
        found: sumOfSquares,
      });
    }
    // Below a few rounding errors of the sum of squares the residual is noise: 0.
    residuals.push(residual > 16 * Number.EPSILON * sumOfSquares ? residual : 0);
  }
  checkTolerance(tolerance, 'gaussianGlr: tolerance', Number.POSITIVE_INFINITY);
  const gap = sums.sumB / sums.countB - sums.sumA / sums.countA;
  return gaussianGlrFromResiduals(sums.countA, sums.countB, gap, residuals[0] + residuals[1], tolerance);
}

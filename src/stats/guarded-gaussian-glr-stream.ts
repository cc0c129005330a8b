import { GaussianGlrStream } from './gaussian-glr-stream.js';

/**
 * The smallest pooled within-group standard deviation the guarded Gaussian GLR starts
 * with, as a fraction of the tolerance: 1/100. Below it the profiled variance, not the
 * gap, drives the statistic (Λ grows like (|g| − τ)²/σ², so ties among the first
 * values, or values constant up to rounding, make it explode whatever the gap).
 */
export const VARIANCE_FLOOR_FRACTION = 0.01;

/**
 * varianceFloor(tolerance) is the smallest pooled variance the guarded Gaussian GLR
 * starts with: (VARIANCE_FLOOR_FRACTION · tolerance)². O(1).
 * @param tolerance the proxy tolerance τ of the test (> 0)
 * @returns the variance floor
 * @example varianceFloor(0.05) // 2.5e-7
 */
export function varianceFloor(tolerance: number): number {
  return (VARIANCE_FLOOR_FRACTION * tolerance) ** 2;
}

/**
 * The guarded Gaussian proxy GLR: GaussianGlrStream's statistic, unchanged, with a
 * stricter start: `ready` only once both groups have an observation, the pooled variance
 * RSS / (n − 2) (n − 1 with two observations) is at least varianceFloor(tolerance), and
 * the statistic is a number. The calibrated GLR and the given-threshold GLR run on it;
 * paper A's test (wald-glr) keeps GaussianGlrStream's own start (a positive variance).
 * O(1) per add, as GaussianGlrStream.
 */
export class GuardedGaussianGlrStream extends GaussianGlrStream {
  private floor = varianceFloor(0.05);

  override reset(tolerance: number): void {
    super.reset(tolerance);
    this.floor = varianceFloor(tolerance);
  }

  override get ready(): boolean {
    const [countA, countB] = this.counts;
    if (countA === 0 || countB === 0) return false;
    const degrees = Math.max(1, countA + countB - 2);
    return this.residualSumOfSquares / degrees >= this.floor;
  }
}

/**
 * The largest |value| a Gaussian GLR reads: 1e100. Its squares, and sums of squared
 * deviations over any pool the project reads (at most 2^31 rows), stay far below the
 * largest double, so the statistic is never NaN from an overflow; pools with larger
 * scores or logits are refused when read (readPoolFile, prepareAudit).
 */
export const LARGEST_GAUSSIAN_VALUE = 1e100;

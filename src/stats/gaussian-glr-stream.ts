import { gaussianGlrFromResiduals } from './gaussian-glr.js';
import type { GlrStream } from './glr-stream.js';

/**
 * The Gaussian proxy GLR (common variance profiled) maintained incrementally: per group
 * a count, a running mean and a running sum of squared deviations (Welford's update,
 * free of the cancellation of sum-of-squares minus squared sum), so each add() is O(1)
 * with one division and one log1p. The statistic is `ready` once both groups have an
 * observation and the pooled residual sum of squares is positive (before that the
 * profiled variance is 0 and the statistic would be infinite).
 * @example
 * const stream = new GaussianGlrStream();
 * stream.add(0, 0.7);
 * stream.add(1, 0.4);
 */
export class GaussianGlrStream implements GlrStream {
  statistic = 0;
  private countA = 0;
  private meanA = 0;
  private squaresA = 0;
  private countB = 0;
  private meanB = 0;
  private squaresB = 0;
  private tolerance = 0.05;

  /** Observations so far in group a and group b. */
  get counts(): readonly [number, number] {
    return [this.countA, this.countB];
  }

  /** The pooled residual sum of squares (within-group squared deviations of both groups). */
  get residualSumOfSquares(): number {
    return this.squaresA + this.squaresB;
  }

  get ready(): boolean {
    return this.countA > 0 && this.countB > 0 && this.squaresA + this.squaresB > 0;
  }

  reset(tolerance: number): void {
    this.countA = 0;
    this.meanA = 0;
    this.squaresA = 0;
    this.countB = 0;
    this.meanB = 0;
    this.squaresB = 0;
    this.tolerance = tolerance;
    this.statistic = 0;
  }

  add(group: number, value: number): void {
    if (group === 0) {
      const n = ++this.countA;
      const delta = value - this.meanA;
      this.meanA += delta / n;
      this.squaresA += delta * (value - this.meanA);
    } else {
      const n = ++this.countB;
      const delta = value - this.meanB;
      this.meanB += delta / n;
      this.squaresB += delta * (value - this.meanB);
    }
    const residual = this.squaresA + this.squaresB;
    if (this.countA === 0 || this.countB === 0 || !(residual > 0)) return;
    this.statistic = gaussianGlrFromResiduals(
      this.countA,
      this.countB,
      this.meanB - this.meanA,
      residual,
      this.tolerance,
    );
  }
}

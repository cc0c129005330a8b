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
  /** Whether `statistic` is that of the last update (add(), or addWithin() that evaluated). */
  private settled = true;

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
    this.settled = true;
  }

  add(group: number, value: number): void {
    this.fold(group, value);
    if (this.countA === 0 || this.countB === 0 || !(this.squaresA + this.squaresB > 0)) return;
    this.evaluate();
  }

  /**
   * addWithin(group, value, upper, lower) folds in one observation as add() does and
   * returns whether it brought `statistic` up to date. It does so unless a cheap exact test
   * proves add()'s statistic strictly between `lower` and `upper` (it needs lower < 0 < upper);
   * then `statistic` is left stale (read it after settle()). The test: with r = A/RSS, where
   * A = (nA nB/n)(|gap| − τ)² is what the boundary adds to the free RSS, the statistic is
   * ±(n/2)·log1p(r) and log1p(r) <= r, so (n/2)·A < reach·RSS·(1 − 1e-9) (reach = upper
   * on the reject side, −lower on the accept side) bounds it strictly inside; the margin is
   * far above the few roundings of either side. No logarithm and no division beyond
   * Welford's. Returns false without a statistic (as add() keeps the previous one) while it
   * is undefined; once defined it stays so (counts and within-group squares never decrease).
   * O(1), no allocation.
   * @param group 0 for group a, 1 for group b
   * @param value the observation (a score or a logit)
   * @param upper the reject threshold
   * @param lower the accept threshold
   * @returns whether `statistic` is add()'s for the observations so far
   * @example
   * const stream = new GaussianGlrStream();
   * stream.reset(0.05);
   * stream.addWithin(0, 0.7, Math.log(16), Math.log(0.2 / 0.95)); // false: group b unseen
   */
  addWithin(group: number, value: number, upper: number, lower: number): boolean {
    this.fold(group, value);
    const countA = this.countA;
    const countB = this.countB;
    const residual = this.squaresA + this.squaresB;
    if (countA === 0 || countB === 0 || !(residual > 0)) return false;
    if (lower < 0 && upper > 0) {
      const excess = Math.abs(this.meanB - this.meanA) - this.tolerance;
      const count = countA + countB;
      const added = ((countA * countB) / count) * excess * excess;
      const reach = excess > 0 ? upper : -lower;
      if (0.5 * count * added < reach * residual * (1 - 1e-9)) {
        this.settled = false;
        return false;
      }
    }
    this.evaluate();
    return true;
  }

  /** settle() brings `statistic` up to date after addWithin() left it stale (add()'s value, to the bit). O(1). */
  settle(): void {
    if (!this.settled) this.evaluate();
  }

  /** Welford's update of the observation's group. */
  private fold(group: number, value: number): void {
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
  }

  /** The statistic of the current sums (both groups seen, positive RSS). */
  private evaluate(): void {
    this.statistic = gaussianGlrFromResiduals(
      this.countA,
      this.countB,
      this.meanB - this.meanA,
      this.squaresA + this.squaresB,
      this.tolerance,
    );
    this.settled = true;
  }
}

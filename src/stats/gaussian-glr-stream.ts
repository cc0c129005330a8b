import { gaussianGlrFromResiduals } from './gaussian-glr.js';
import { ALEA_MULTIPLIER, ALEA_SCALE } from '../util/random.js';
import { type GlrStream, QUERY_NAN } from './glr-stream.js';

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
  // Fields that come to hold fractions start as NaN (set to 0 by the constructor's reset), as in
  // BernoulliGlrStream: a field laid out for integers is laid out again at its first fraction.
  statistic = Number.NaN;
  /** How queryShuffled() stopped: 1 at or above upper, -1 at or below lower, 0 at its cap, or QUERY_NAN. */
  crossing = 0;
  private countA = 0;
  private meanA = Number.NaN;
  private squaresA = Number.NaN;
  private countB = 0;
  private meanB = Number.NaN;
  private squaresB = Number.NaN;
  private tolerance = 0.05;
  /** Whether `statistic` is that of the last update (add(), or addWithin() that evaluated). */
  private settled = true;

  constructor() {
    this.reset(0.05);
  }

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
   * proves add()'s statistic strictly between `lower` and `upper` (strictlyInside, which needs
   * lower < 0 < upper); then `statistic` is left stale (read it after settle()). No logarithm
   * and no division beyond Welford's. Returns false without a statistic (as add() keeps the
   * previous one) while it is undefined; once defined it stays so (counts and within-group
   * squares never decrease).
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
    if (
      lower < 0 &&
      upper > 0 &&
      strictlyInside(countA, countB, this.meanB - this.meanA, residual, this.tolerance, upper, lower)
    ) {
      this.settled = false;
      return false;
    }
    this.evaluate();
    return true;
  }

  /**
   * queryShuffled(order, swaps, group, value, cap, alea, upper, lower, minimum, queried) is the
   * replicate loop of paper A's proxy audit written out for this stream, from a reset stream:
   * for positions 0, 1, ... it takes the partial Fisher-Yates step of `order`
   * (partialShuffleStep's arithmetic, the partner in `swaps`) with the draw of the createRandom
   * generator whose state is `alea` (its Alea step on locals, the state written back), folds
   * the row's value into its group as addWithin() does, and stops after the first evaluated
   * statistic at or beyond a threshold once each group has `minimum` observations, or at
   * `cap`. It also sums the queried values per group into `queried` (count a, sum a, count b,
   * sum b, added in query order, as a fixed-sample decision continues from them). Returns the
   * queries made; `crossing` is then 1 (statistic >= upper), -1 (<= lower), 0 (no stop) or
   * QUERY_NAN (a NaN statistic). The same draws, rows and statistics as addWithin() called from
   * a loop, to the bit.
   *
   * Welford's update runs on both groups at once, the other group's step multiplied by 0: the
   * groups of a shuffled pool alternate unpredictably, and a branch on them costs more than
   * the second division. Exact: a step times 1 is the step, and adding the other group's
   * +-0 leaves its mean and squares as they were (neither is ever -0: both start at +0, and a
   * sum of doubles is -0 only when both terms are); its division is by a count of at least 1,
   * of finite values (|value| <= LARGEST_GAUSSIAN_VALUE), so never NaN. O(queries), no
   * allocation.
   */
  queryShuffled(
    order: Int32Array,
    swaps: Int32Array,
    group: Uint8Array,
    value: Float64Array,
    cap: number,
    alea: Float64Array,
    upper: number,
    lower: number,
    minimum: number,
    queried: Float64Array,
  ): number {
    const tolerance = this.tolerance;
    const bounded = lower < 0 && upper > 0;
    const length = order.length;
    // Alea's constants on locals: an imported binding is re-read (and checked) at every use in a loop.
    const multiplier = ALEA_MULTIPLIER;
    const scale = ALEA_SCALE;
    let s0 = alea[0];
    let s1 = alea[1];
    let s2 = alea[2];
    let carry = alea[3];
    let countA = this.countA;
    let meanA = this.meanA;
    let squaresA = this.squaresA;
    let countB = this.countB;
    let meanB = this.meanB;
    let squaresB = this.squaresB;
    let sumA = 0;
    let sumB = 0;
    let position = 0;
    let crossing = 0;
    let settled = this.settled;
    while (position < cap) {
      const t = multiplier * s0 + carry * scale;
      s0 = s1;
      s1 = s2;
      carry = Math.floor(t);
      s2 = t - carry;
      const partner = position + Math.floor(s2 * (length - position));
      const row = order[partner];
      order[partner] = order[position];
      order[position] = row;
      swaps[position] = partner;
      position++;
      const b = group[row];
      const a = 1 - b;
      const x = value[row];
      sumA += a * x;
      sumB += b * x;
      countA += a;
      countB += b;
      const deltaA = x - meanA;
      const nextA = meanA + a * (deltaA / (countA + b));
      squaresA += a * (deltaA * (x - nextA));
      meanA = nextA;
      const deltaB = x - meanB;
      const nextB = meanB + b * (deltaB / (countB + a));
      squaresB += b * (deltaB * (x - nextB));
      meanB = nextB;
      const residual = squaresA + squaresB;
      if (countA === 0 || countB === 0 || !(residual > 0)) continue;
      if (bounded && strictlyInside(countA, countB, meanB - meanA, residual, tolerance, upper, lower)) {
        settled = false;
        continue;
      }
      // evaluate()'s statistic, from the locals.
      const statistic = gaussianGlrFromResiduals(countA, countB, meanB - meanA, residual, tolerance);
      this.statistic = statistic;
      settled = true;
      if (Number.isNaN(statistic)) {
        crossing = QUERY_NAN;
        break;
      }
      if ((statistic >= upper || statistic <= lower) && countA >= minimum && countB >= minimum) {
        crossing = statistic >= upper ? 1 : -1;
        break;
      }
    }
    alea[0] = s0;
    alea[1] = s1;
    alea[2] = s2;
    alea[3] = carry;
    this.countA = countA;
    this.meanA = meanA;
    this.squaresA = squaresA;
    this.countB = countB;
    this.meanB = meanB;
    this.squaresB = squaresB;
    this.settled = settled;
    this.crossing = crossing;
    queried[0] = countA;
    queried[1] = sumA;
    queried[2] = countB;
    queried[3] = sumB;
    return position;
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

/**
 * strictlyInside(countA, countB, gap, residual, tolerance, upper, lower) is the cheap exact test
 * of addWithin() (lower < 0 < upper, positive residual): true only when the statistic of these
 * sums is strictly between lower and upper. With e = |gap| − τ and A = (nA nB/n)·e², what the
 * boundary adds to the free RSS, the statistic is ±(n/2)·log1p(A/RSS) and log1p(r) <= r, so
 * (n/2)·A = nA·nB·e²/2 < reach·RSS·(1 − 1e-9) (reach = upper when e > 0, else −lower) bounds
 * its magnitude below reach: n cancels (no division), and the margin is far above the few
 * roundings of either side. O(1).
 */
function strictlyInside(
  countA: number,
  countB: number,
  gap: number,
  residual: number,
  tolerance: number,
  upper: number,
  lower: number,
): boolean {
  const excess = Math.abs(gap) - tolerance;
  const reach = excess > 0 ? upper : -lower;
  return 0.5 * countA * countB * excess * excess < reach * residual * (1 - 1e-9);
}

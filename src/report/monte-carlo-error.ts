/**
 * Monte Carlo summaries of replicate values: the mean, the sample standard deviation
 * and the standard error of the mean.
 */
export interface SampleMoments {
  /** Number of finite values used (NaN and ±Infinity are skipped). */
  count: number;
  /** Arithmetic mean; NaN when count is 0. */
  mean: number;
  /** Sample standard deviation (n − 1 denominator); NaN when count < 2. */
  standardDeviation: number;
  /** Standard error of the mean, standardDeviation / √count; NaN when count < 2. */
  standardError: number;
}

/**
 * MomentsAccumulator takes values one at a time (Welford's update, so huge values do
 * not lose precision) and gives their SampleMoments: the streaming form of
 * sampleMoments, with the same arithmetic in the same order, so both give the same
 * bits. Non-finite values are skipped. O(1) per value and in memory.
 */
export class MomentsAccumulator {
  private count = 0;
  private mean = 0;
  private sumSquares = 0;

  /** add(value) takes one value (NaN and ±Infinity are skipped). */
  add(value: number): void {
    if (!Number.isFinite(value)) return;
    this.count += 1;
    const delta = value - this.mean;
    this.mean += delta / this.count;
    this.sumSquares += delta * (value - this.mean);
  }

  /** moments() is the SampleMoments of the values added so far. */
  moments(): SampleMoments {
    const { count, mean, sumSquares } = this;
    if (count === 0) return { count, mean: Number.NaN, standardDeviation: Number.NaN, standardError: Number.NaN };
    if (count === 1) return { count, mean, standardDeviation: Number.NaN, standardError: Number.NaN };
    const standardDeviation = Math.sqrt(sumSquares / (count - 1));
    return { count, mean, standardDeviation, standardError: standardDeviation / Math.sqrt(count) };
  }
}

/**
 * sampleMoments(values) computes the mean, sample standard deviation (Bessel's n − 1)
 * and standard error of the mean over the finite values, with Welford's update so
 * huge values do not lose precision (MomentsAccumulator). O(n). Never throws.
 */
export function sampleMoments(values: ArrayLike<number>): SampleMoments {
  const accumulator = new MomentsAccumulator();
  for (let i = 0; i < values.length; i++) accumulator.add(values[i]);
  return accumulator.moments();
}

/**
 * frequencyStandardError(frequency, count) is the binomial standard error
 * √(p(1 − p)/n) of a frequency p estimated from n replicates; NaN when n is 0. O(1).
 */
export function frequencyStandardError(frequency: number, count: number): number {
  if (!(count > 0)) return Number.NaN;
  return Math.sqrt((frequency * (1 - frequency)) / count);
}

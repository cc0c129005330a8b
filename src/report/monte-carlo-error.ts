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
 * sampleMoments(values) computes the mean, sample standard deviation (Bessel's n − 1)
 * and standard error of the mean over the finite values, with Welford's update so
 * huge values do not lose precision. O(n). Never throws.
 */
export function sampleMoments(values: ArrayLike<number>): SampleMoments {
  let count = 0;
  let mean = 0;
  let sumSquares = 0;
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (!Number.isFinite(value)) continue;
    count += 1;
    const delta = value - mean;
    mean += delta / count;
    sumSquares += delta * (value - mean);
  }
  if (count === 0) return { count, mean: Number.NaN, standardDeviation: Number.NaN, standardError: Number.NaN };
  if (count === 1) return { count, mean, standardDeviation: Number.NaN, standardError: Number.NaN };
  const standardDeviation = Math.sqrt(sumSquares / (count - 1));
  return { count, mean, standardDeviation, standardError: standardDeviation / Math.sqrt(count) };
}

/**
 * frequencyStandardError(frequency, count) is the binomial standard error
 * √(p(1 − p)/n) of a frequency p estimated from n replicates; NaN when n is 0. O(1).
 */
export function frequencyStandardError(frequency: number, count: number): number {
  if (!(count > 0)) return Number.NaN;
  return Math.sqrt((frequency * (1 - frequency)) / count);
}

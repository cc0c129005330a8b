import { inputError } from '../../util/errors.js';
import { complianceWindow, type MultiGroupAggregation, windowExcess } from './compliance-window.js';

/**
 * The K-group Gaussian proxy GLR (score and logit access) with one common variance
 * profiled out, as gaussian-glr.ts does for two groups: with n = sum of counts and W the
 * pooled within-group residual sum of squares, the profiled log-likelihood at means mu is
 * -(n/2) log((W + Q(mu))/n) - n/2 with Q(mu) = sum_g n_g (mean_g - mu_g)^2, so
 *   statistic = +-(n/2) log(1 + Qmin / W),
 * Qmin the least Q over H0 (violation side) or over the closure of the violation side
 * (compliance side, sign minus). Kernels: no validation, no allocation.
 */

const MAXIMUM_ITERATIONS = 200;

/**
 * gaussianWindowStart(counts, means, groupCount, scale, shift) returns the window start c
 * minimising Q(c) = sum_g n_g (mean_g - clip(mean_g, c, scale c + shift))^2, a convex
 * piecewise quadratic whose derivative / 2, sum over means below c of n_g (c - mean_g) minus
 * scale times the sum over means above the window of n_g (mean_g - scale c - shift), is
 * increasing and piecewise linear: Newton lands on its root once the active groups are
 * right, and a bracket [lowest mean, (highest mean - shift)/scale] with bisection keeps it
 * safe. For means that violate the window. O(groupCount) per iteration.
 */
export function gaussianWindowStart(
  counts: Float64Array,
  means: Float64Array,
  groupCount: number,
  scale: number,
  shift: number,
): number {
  let lowest = Number.POSITIVE_INFINITY;
  let highest = Number.NEGATIVE_INFINITY;
  for (let g = 0; g < groupCount; g++) {
    if (means[g] < lowest) lowest = means[g];
    if (means[g] > highest) highest = means[g];
  }
  let low = lowest;
  let high = (highest - shift) / scale;
  let c = 0.5 * (low + high);
  for (let iteration = 0; iteration < MAXIMUM_ITERATIONS; iteration++) {
    const top = scale * c + shift;
    let slope = 0;
    let curvature = 0;
    for (let g = 0; g < groupCount; g++) {
      const mean = means[g];
      if (mean < c) {
        slope += counts[g] * (c - mean);
        curvature += counts[g];
      } else if (mean > top) {
        slope -= scale * counts[g] * (mean - top);
        curvature += scale * scale * counts[g];
      }
    }
    if (slope < 0) low = c;
    else if (slope > 0) high = c;
    else return c;
    let next = c - slope / curvature;
    if (!(next > low && next < high)) next = 0.5 * (low + high);
    if (next === c || high - low <= 4 * Number.EPSILON * Math.max(1, Math.abs(c))) return next;
    c = next;
  }
  return c;
}

/** gaussianWindowCost(counts, means, groupCount, scale, shift, start): Q at the window start. O(K). */
export function gaussianWindowCost(
  counts: Float64Array,
  means: Float64Array,
  groupCount: number,
  scale: number,
  shift: number,
  start: number,
): number {
  const top = scale * start + shift;
  let cost = 0;
  for (let g = 0; g < groupCount; g++) {
    const mean = means[g];
    const excess = mean < start ? start - mean : mean > top ? mean - top : 0;
    cost += counts[g] * excess * excess;
  }
  return cost;
}

/**
 * gaussianPairFaceCost(ni, meanI, nj, meanJ, scale, shift) is the least n_i (mean_i - x)^2 +
 * n_j (mean_j - scale x - shift)^2 over x: n_i n_j (mean_j - shift - scale mean_i)^2 / (n_i +
 * scale^2 n_j), the cost of the face mu_j = scale mu_i + shift. At scale 1 it is the
 * two-group (n_a n_b / n)(|gap| - tolerance)^2. O(1).
 */
export function gaussianPairFaceCost(
  ni: number,
  meanI: number,
  nj: number,
  meanJ: number,
  scale: number,
  shift: number,
): number {
  const excess = meanJ - shift - scale * meanI;
  return (ni * nj * excess * excess) / (ni + scale * scale * nj);
}

/**
 * gaussianGlrFromCost(totalCount, cost, residualSumOfSquares, sign) is sign (n/2) log(1 +
 * cost / W), with the limits of W = 0 (0 when cost = 0, else sign Infinity). O(1).
 */
export function gaussianGlrFromCost(
  totalCount: number,
  cost: number,
  residualSumOfSquares: number,
  sign: number,
): number {
  if (cost === 0) return 0;
  const magnitude =
    residualSumOfSquares > 0 ? 0.5 * totalCount * Math.log1p(cost / residualSumOfSquares) : Number.POSITIVE_INFINITY;
  return sign * magnitude;
}

/**
 * multiGroupGaussianGlrKernel(counts, means, residualSumOfSquares, groupCount, scale, shift)
 * is the signed K-group Gaussian proxy GLR: violation side Qmin = Q(best window start), compliance
 * side Qmin = the least pair face cost over ordered pairs. At K = 2 and scale 1 it is
 * gaussianGlrFromResiduals. O(K) per Newton iteration, O(K^2) on the compliance side.
 */
export function multiGroupGaussianGlrKernel(
  counts: Float64Array,
  means: Float64Array,
  residualSumOfSquares: number,
  groupCount: number,
  scale: number,
  shift: number,
): number {
  let lowest = Number.POSITIVE_INFINITY;
  let highest = Number.NEGATIVE_INFINITY;
  let total = 0;
  for (let g = 0; g < groupCount; g++) {
    if (means[g] < lowest) lowest = means[g];
    if (means[g] > highest) highest = means[g];
    total += counts[g];
  }
  const excess = windowExcess(lowest, highest, scale, shift);
  if (excess === 0) return 0;
  if (excess > 0) {
    const start = gaussianWindowStart(counts, means, groupCount, scale, shift);
    return gaussianGlrFromCost(
      total,
      gaussianWindowCost(counts, means, groupCount, scale, shift, start),
      residualSumOfSquares,
      1,
    );
  }
  let least = Number.POSITIVE_INFINITY;
  for (let i = 0; i < groupCount; i++) {
    for (let j = 0; j < groupCount; j++) {
      if (i === j) continue;
      const cost = gaussianPairFaceCost(counts[i], means[i], counts[j], means[j], scale, shift);
      if (cost < least) least = cost;
    }
  }
  return gaussianGlrFromCost(total, least, residualSumOfSquares, -1);
}

/**
 * gaussianConstrainedCost(counts, means, groupCount, scale, shift, constrained) writes the
 * least-squares means under H0 (each mean clipped into the best window) to `constrained` and
 * returns Q there (0 when the means fit a window). The quantity the SciPy cross-check
 * compares. O(K) per Newton iteration.
 */
export function gaussianConstrainedCost(
  counts: Float64Array,
  means: Float64Array,
  groupCount: number,
  scale: number,
  shift: number,
  constrained: Float64Array,
): number {
  let lowest = Number.POSITIVE_INFINITY;
  let highest = Number.NEGATIVE_INFINITY;
  for (let g = 0; g < groupCount; g++) {
    constrained[g] = means[g];
    if (means[g] < lowest) lowest = means[g];
    if (means[g] > highest) highest = means[g];
  }
  if (!(windowExcess(lowest, highest, scale, shift) > 0)) return 0;
  const start = gaussianWindowStart(counts, means, groupCount, scale, shift);
  const top = scale * start + shift;
  for (let g = 0; g < groupCount; g++) constrained[g] = Math.min(Math.max(means[g], start), top);
  return gaussianWindowCost(counts, means, groupCount, scale, shift, start);
}

/** Per-group sufficient statistics of K samples of scores or logits. */
export interface MultiGroupSums {
  readonly counts: readonly number[];
  readonly sums: readonly number[];
  readonly sumsOfSquares: readonly number[];
}

/**
 * multiGroupGaussianGlr(sums, aggregation, bound) returns the signed K-group Gaussian proxy
 * GLR for H0: max_g mean_g - min_g mean_g <= bound ('difference', any bound > 0) or min_g
 * mean_g >= bound max_g mean_g ('ratio', nonnegative means, bound in (0, 1)). Residual sums
 * of squares are sumOfSquares - sum^2/count, 0 below 16 rounding errors (as gaussianGlr).
 * Throws InputError unless there are at least two groups, each count an integer >= 1, the
 * sums finite and each sum of squares at least sum^2/count up to rounding.
 * @param sums count, sum and sum of squares per group
 * @param aggregation 'difference' or 'ratio'
 * @param bound the tolerance τ or the smallest compliant ratio ρ
 * @returns the signed statistic (positive: evidence of a violation)
 * @example
 * multiGroupGaussianGlr({ counts: [3, 3, 2], sums: [1.2, 2.1, 1], sumsOfSquares: [0.6, 1.6, 0.6] }, 'difference',
 * 0.05);
 */
export function multiGroupGaussianGlr(sums: MultiGroupSums, aggregation: MultiGroupAggregation, bound: number): number {
  const where = 'multiGroupGaussianGlr';
  const groupCount = sums.counts.length;
  if (!(groupCount >= 2 && sums.sums.length === groupCount && sums.sumsOfSquares.length === groupCount)) {
    throw inputError({
      where: `${where}: sums`,
      expected: 'at least two groups, with a count, sum and sum of squares each',
      found: `${groupCount} counts, ${sums.sums.length} sums, ${sums.sumsOfSquares.length} sums of squares`,
    });
  }
  const counts = new Float64Array(groupCount);
  const means = new Float64Array(groupCount);
  let residual = 0;
  for (let g = 0; g < groupCount; g++) {
    const count = sums.counts[g];
    const sum = sums.sums[g];
    const squares = sums.sumsOfSquares[g];
    if (!(Number.isSafeInteger(count) && count >= 1))
      throw inputError({ where: `${where}: counts[${g}]`, expected: 'an integer >= 1', found: count });
    if (!Number.isFinite(sum))
      throw inputError({ where: `${where}: sums[${g}]`, expected: 'a finite number', found: sum });
    const own = squares - (sum * sum) / count;
    if (!Number.isFinite(squares) || own < -1e-9 * Math.max(1, squares)) {
      throw inputError({
        where: `${where}: sumsOfSquares[${g}]`,
        expected: `a finite number >= sum^2/count = ${(sum * sum) / count}`,
        found: squares,
      });
    }
    counts[g] = count;
    means[g] = sum / count;
    residual += own > 16 * Number.EPSILON * squares ? own : 0;
  }
  const { scale, shift } = complianceWindow(aggregation, bound, where, true);
  return multiGroupGaussianGlrKernel(counts, means, residual, groupCount, scale, shift);
}

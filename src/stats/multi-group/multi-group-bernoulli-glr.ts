import { inputError } from '../../util/errors.js';
import { complianceWindow, type MultiGroupAggregation, windowExcess } from './compliance-window.js';

/**
 * The K-group Bernoulli GLR (decision access) for H0: every group's rate in a window
 * [c, scale c + shift] (compliance-window.ts). Group g has count n_g and positives s_g,
 * log-likelihood l_g(t) = s_g log t + (n_g - s_g) log(1 - t), maximal at t_g = s_g / n_g.
 * The proof that the constrained maximum clips every rate into the best window (a
 * one-dimensional concave problem in c) is in docs/core.md, "K groups". These are
 * kernels: typed arrays and numbers in, no validation, no allocation.
 */

/** Newton stops once its step is below this (rates are in [0, 1]). */
const STEP_ACCURACY = 1e-15;
/** Iterations before the solvers give up refining (bisection halves the bracket each time). */
const MAXIMUM_ITERATIONS = 200;

/**
 * bernoulliRateDeficit(positives, count, rate) is l(s/n) - l(rate) >= 0, with 0 log 0 = 0
 * (Infinity when the rate is 0 or 1 and the data say otherwise). O(1).
 */
export function bernoulliRateDeficit(positives: number, count: number, rate: number): number {
  const negatives = count - positives;
  const estimate = positives / count;
  let value = 0;
  if (positives > 0) value += positives * Math.log(estimate / rate);
  if (negatives > 0) value += negatives * Math.log((1 - estimate) / (1 - rate));
  return value;
}

/** The rate of group g clipped into the window [start, scale start + shift]. */
function clipped(estimate: number, start: number, scale: number, shift: number): number {
  if (estimate < start) return start;
  const top = scale * start + shift;
  return Math.min(estimate, top);
}

/**
 * bernoulliWindowStart(counts, positives, groupCount, scale, shift, guess) returns the
 * window start c maximising F(c) = sum_g l_g(clip(t_g, c, scale c + shift)), for rates
 * that violate the window (highest t above scale lowest + shift): F is concave, its
 * maximiser lies in [lowest t, (highest t - shift) / scale], and F'(c) = sum over groups
 * below c of l_g'(c) + scale times the sum over groups above the window of
 * l_g'(scale c + shift). Safeguarded Newton from `guess` (a warm start; outside the bracket
 * the midpoint), bisecting when a step leaves the bracket. O(groupCount) per iteration.
 */
export function bernoulliWindowStart(
  counts: Float64Array,
  positives: Float64Array,
  groupCount: number,
  scale: number,
  shift: number,
  guess: number,
): number {
  let lowest = 1;
  let highest = 0;
  for (let g = 0; g < groupCount; g++) {
    const estimate = positives[g] / counts[g];
    if (estimate < lowest) lowest = estimate;
    if (estimate > highest) highest = estimate;
  }
  let low = lowest;
  let high = (highest - shift) / scale;
  let c = guess > low && guess < high ? guess : 0.5 * (low + high);
  for (let iteration = 0; iteration < MAXIMUM_ITERATIONS; iteration++) {
    const top = scale * c + shift;
    let slope = 0;
    let curvature = 0;
    for (let g = 0; g < groupCount; g++) {
      const s = positives[g];
      const f = counts[g] - s;
      const estimate = s / counts[g];
      if (estimate < c) {
        slope += s / c - f / (1 - c);
        curvature -= s / (c * c) + f / ((1 - c) * (1 - c));
      } else if (estimate > top) {
        slope += scale * (s / top - f / (1 - top));
        curvature -= scale * scale * (s / (top * top) + f / ((1 - top) * (1 - top)));
      }
    }
    if (slope > 0) low = c;
    else if (slope < 0) high = c;
    else return c;
    let next = c - slope / curvature;
    if (!(next > low && next < high)) next = 0.5 * (low + high);
    if (Math.abs(next - c) <= STEP_ACCURACY || next === c) return next;
    c = next;
  }
  return c;
}

/**
 * bernoulliWindowDeficit(counts, positives, groupCount, scale, shift, start) is
 * l(t) - F(start): the log-likelihood lost by clipping every rate into the window at
 * `start`. O(groupCount).
 */
export function bernoulliWindowDeficit(
  counts: Float64Array,
  positives: Float64Array,
  groupCount: number,
  scale: number,
  shift: number,
  start: number,
): number {
  let deficit = 0;
  for (let g = 0; g < groupCount; g++) {
    const estimate = positives[g] / counts[g];
    const rate = clipped(estimate, start, scale, shift);
    if (rate !== estimate) deficit += bernoulliRateDeficit(positives[g], counts[g], rate);
  }
  return deficit;
}

/** The slope of x -> l_i(x) + l_j(scale x + shift) (0 log 0 terms dropped). */
function faceSlope(si: number, fi: number, sj: number, fj: number, scale: number, shift: number, x: number): number {
  const y = scale * x + shift;
  let slope = 0;
  if (si > 0) slope += si / x;
  if (fi > 0) slope -= fi / (1 - x);
  if (sj > 0) slope += (scale * sj) / y;
  if (fj > 0) slope -= (scale * fj) / (1 - y);
  return slope;
}

/**
 * bernoulliPairFaceDeficit(si, ni, sj, nj, scale, shift) is the log-likelihood two groups
 * lose by moving to the face t_j = scale t_i + shift (group i the window's bottom, j
 * above its top), maximising the concave l_i(x) + l_j(scale x + shift) over x in
 * [max(0, (t_j - shift)/scale), min(t_i, (1 - shift)/scale)] by safeguarded Newton (an
 * interval end when the slope there has the wrong sign). For rates inside the window
 * (t_j <= scale t_i + shift). At scale 1 it is paper A's face problem (eq. 27-30). O(1).
 */
export function bernoulliPairFaceDeficit(
  si: number,
  ni: number,
  sj: number,
  nj: number,
  scale: number,
  shift: number,
): number {
  const fi = ni - si;
  const fj = nj - sj;
  let low = Math.max(0, (sj / nj - shift) / scale);
  let high = Math.min(si / ni, (1 - shift) / scale);
  let x: number;
  if (high <= low) x = high;
  else if (low === 0 && si === 0 && faceSlope(si, fi, sj, fj, scale, shift, 0) <= 0) x = 0;
  else if (scale * high + shift === 1 && fj === 0 && faceSlope(si, fi, sj, fj, scale, shift, high) >= 0) x = high;
  else {
    x = 0.5 * (low + high);
    for (let iteration = 0; iteration < MAXIMUM_ITERATIONS; iteration++) {
      const y = scale * x + shift;
      const slope = faceSlope(si, fi, sj, fj, scale, shift, x);
      const curvature =
        -(si / (x * x) + fi / ((1 - x) * (1 - x))) - scale * scale * (sj / (y * y) + fj / ((1 - y) * (1 - y)));
      if (slope > 0) low = x;
      else if (slope < 0) high = x;
      else break;
      let next = x - slope / curvature;
      if (!(next > low && next < high)) next = 0.5 * (low + high);
      const done = Math.abs(next - x) <= STEP_ACCURACY || next === x;
      x = next;
      if (done) break;
    }
  }
  return bernoulliRateDeficit(si, ni, x) + bernoulliRateDeficit(sj, nj, scale * x + shift);
}

/**
 * bernoulliNearestViolation(counts, positives, groupCount, scale, shift) is the smallest
 * pair face deficit over ordered pairs (i, j), i != j: the log-likelihood the rates lose
 * on the nearest point of the violation side's closure. O(groupCount^2) face problems.
 */
export function bernoulliNearestViolation(
  counts: Float64Array,
  positives: Float64Array,
  groupCount: number,
  scale: number,
  shift: number,
): number {
  let least = Number.POSITIVE_INFINITY;
  for (let i = 0; i < groupCount; i++) {
    for (let j = 0; j < groupCount; j++) {
      if (i === j) continue;
      const deficit = bernoulliPairFaceDeficit(positives[i], counts[i], positives[j], counts[j], scale, shift);
      if (deficit < least) least = deficit;
    }
  }
  return least;
}

/**
 * multiGroupBernoulliGlrKernel(counts, positives, groupCount, scale, shift) is the signed
 * K-group Bernoulli GLR: when the rates violate the window, l(t) minus the maximum over
 * H0 (the best clip, bernoulliWindowStart), >= 0; otherwise minus the smallest pair face
 * deficit (the maximum over the closure of the violation side), <= 0. At K = 2 and scale
 * 1 it is bernoulliGlrKernel (paper A eq. 22-23). Kernel: counts >= 1. O(K) per Newton
 * iteration on the violation side, O(K^2) face problems on the compliance side.
 */
export function multiGroupBernoulliGlrKernel(
  counts: Float64Array,
  positives: Float64Array,
  groupCount: number,
  scale: number,
  shift: number,
): number {
  let lowest = 1;
  let highest = 0;
  for (let g = 0; g < groupCount; g++) {
    const estimate = positives[g] / counts[g];
    if (estimate < lowest) lowest = estimate;
    if (estimate > highest) highest = estimate;
  }
  if (windowExcess(lowest, highest, scale, shift) > 0) {
    const start = bernoulliWindowStart(counts, positives, groupCount, scale, shift, -1);
    return Math.max(0, bernoulliWindowDeficit(counts, positives, groupCount, scale, shift, start));
  }
  return Math.min(0, -bernoulliNearestViolation(counts, positives, groupCount, scale, shift));
}

/**
 * bernoulliConstrainedRates(counts, positives, groupCount, scale, shift, rates) writes the
 * maximum-likelihood rates under H0 to `rates` and returns their log-likelihood
 * sum_g l_g(rates_g) (0 log 0 = 0): the rates themselves when they fit a window, else each
 * clipped into the best window. The quantity the SciPy cross-check compares. O(K) per
 * Newton iteration.
 */
export function bernoulliConstrainedRates(
  counts: Float64Array,
  positives: Float64Array,
  groupCount: number,
  scale: number,
  shift: number,
  rates: Float64Array,
): number {
  let lowest = 1;
  let highest = 0;
  for (let g = 0; g < groupCount; g++) {
    rates[g] = positives[g] / counts[g];
    if (rates[g] < lowest) lowest = rates[g];
    if (rates[g] > highest) highest = rates[g];
  }
  if (windowExcess(lowest, highest, scale, shift) > 0) {
    const start = bernoulliWindowStart(counts, positives, groupCount, scale, shift, -1);
    for (let g = 0; g < groupCount; g++) rates[g] = clipped(rates[g], start, scale, shift);
  }
  let logLikelihood = 0;
  for (let g = 0; g < groupCount; g++) {
    const s = positives[g];
    const f = counts[g] - s;
    if (s > 0) logLikelihood += s * Math.log(rates[g]);
    if (f > 0) logLikelihood += f * Math.log(1 - rates[g]);
  }
  return logLikelihood;
}

/**
 * multiGroupBernoulliGlr(counts, positives, aggregation, bound) returns the signed K-group
 * Bernoulli GLR for H0: max_g rate_g - min_g rate_g <= bound ('difference') or min_g rate_g
 * >= bound max_g rate_g ('ratio'): positive is evidence of a violation, negative of
 * compliance. See multiGroupBernoulliGlrKernel. Throws InputError unless there are at least
 * two groups, every count is an integer >= 1 and every positives an integer in [0, count],
 * and the bound is in (0, 1).
 * @param counts observations per group
 * @param positives positive decisions per group
 * @param aggregation 'difference' or 'ratio'
 * @param bound the tolerance δ or the smallest compliant ratio ρ
 * @returns the signed GLR statistic
 * @example
 * multiGroupBernoulliGlr([400, 300, 50], [160, 90, 30], 'difference', 0.05);
 */
export function multiGroupBernoulliGlr(
  counts: readonly number[],
  positives: readonly number[],
  aggregation: MultiGroupAggregation,
  bound: number,
): number {
  const where = 'multiGroupBernoulliGlr';
  if (!(counts.length >= 2 && positives.length === counts.length)) {
    throw inputError({
      where: `${where}: counts`,
      expected: 'at least two groups, with as many positives as counts',
      found: `${counts.length} counts and ${positives.length} positives`,
    });
  }
  counts.forEach((count, g) => {
    if (!(Number.isSafeInteger(count) && count >= 1))
      throw inputError({ where: `${where}: counts[${g}]`, expected: 'an integer >= 1', found: count });
    const s = positives[g];
    if (!(Number.isSafeInteger(s) && s >= 0 && s <= count))
      throw inputError({ where: `${where}: positives[${g}]`, expected: `an integer in [0, ${count}]`, found: s });
  });
  const { scale, shift } = complianceWindow(aggregation, bound, where);
  return multiGroupBernoulliGlrKernel(
    Float64Array.from(counts),
    Float64Array.from(positives),
    counts.length,
    scale,
    shift,
  );
}

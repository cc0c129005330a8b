import type { Random } from '../util/random.js';

/**
 * hypergeometricProbability(logFactorials, population, successes, draws, value) is
 * P(X = value) for X ~ Hypergeometric(population, successes, draws): the chance of
 * `value` successes in `draws` draws without replacement from `population` items of
 * which `successes` are successes. Uses ln-factorials (logFactorialTable). O(1).
 */
export function hypergeometricProbability(
  logFactorials: Float64Array,
  population: number,
  successes: number,
  draws: number,
  value: number,
): number {
  const failures = population - successes;
  if (value < 0 || value > successes || value > draws || draws - value > failures) return 0;
  const t = logFactorials;
  const logP =
    t[successes] -
    t[value] -
    t[successes - value] +
    (t[failures] - t[draws - value] - t[failures - draws + value]) -
    (t[population] - t[draws] - t[population - draws]);
  return Math.exp(logP);
}

/**
 * hypergeometricKernel(random, logFactorials, population, successes, draws) draws one
 * X ~ Hypergeometric(population, successes, draws) with exactly one uniform number (also
 * when X is forced, so that common random numbers stay aligned), by exact
 * inversion of the distribution function taken in the order mode, mode + 1, mode − 1,
 * mode + 2, ... (any fixed order of the support inverts exactly). Expected work is
 * O(1 + standard deviation); the pmf at the mode comes from the ln-factorial table and
 * its neighbours from the ratio P(x+1)/P(x) = (K−x)(n−x)/((x+1)(N−K−n+x+1)).
 * `logFactorials` must cover `population`. Inputs are trusted (integers,
 * 0 ≤ successes, draws ≤ population).
 */
export function hypergeometricKernel(
  random: Random,
  logFactorials: Float64Array,
  population: number,
  successes: number,
  draws: number,
): number {
  const failures = population - successes;
  const low = Math.max(0, draws - failures);
  const high = Math.min(draws, successes);
  // Always one uniform per draw, even when the value is forced (an empty stratum, no
  // draws left): callers that reuse a seed across parameters (common random numbers)
  // then stay on the same uniforms draw after draw.
  const u0 = random();
  if (low === high) return low;
  let mode = Math.floor(((draws + 1) * (successes + 1)) / (population + 2));
  if (mode < low) mode = low;
  if (mode > high) mode = high;
  const atMode = hypergeometricProbability(logFactorials, population, successes, draws, mode);
  let u = u0 - atMode;
  if (u <= 0) return mode;
  let up = mode;
  let down = mode;
  let upProbability = atMode;
  let downProbability = atMode;
  while (up < high || down > low) {
    if (up < high) {
      upProbability *= ((successes - up) * (draws - up)) / ((up + 1) * (failures - draws + up + 1));
      up++;
      u -= upProbability;
      if (u <= 0) return up;
    }
    if (down > low) {
      downProbability *= (down * (failures - draws + down)) / ((successes - down + 1) * (draws - down + 1));
      down--;
      u -= downProbability;
      if (u <= 0) return down;
    }
  }
  // Rounding left a sliver (≲ 1e-12) of probability unassigned: give it to the mode.
  return mode;
}

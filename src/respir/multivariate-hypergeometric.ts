import type { Random } from '../util/random.js';
import { hypergeometricKernel } from './hypergeometric.js';

/**
 * multivariateHypergeometricKernel(random, logFactorials, counts, from, to, draws, out)
 * draws how many of `draws` items sampled uniformly without replacement fall in each
 * stratum counts[from..to-1], writing them to out[from..to-1]. Sequential conditional
 * draws: stratum i gets Hypergeometric(items left, counts[i], draws left), which is
 * the multivariate hypergeometric law exactly. Every stratum but the last takes one
 * uniform, whatever the counts (an empty stratum, or no draws left, too): a draw always
 * uses strata − 1 uniforms, so two candidate sets drawn with the same seed use the same
 * uniforms for the same draw (true common random numbers). O(strata × (1 + standard deviation)).
 * Inputs are trusted (draws ≤ sum of the counts; logFactorials covers that sum).
 */
export function multivariateHypergeometricKernel(
  random: Random,
  logFactorials: Float64Array,
  counts: Int32Array,
  from: number,
  to: number,
  draws: number,
  out: Int32Array,
): void {
  let remainingItems = 0;
  for (let i = from; i < to; i++) remainingItems += counts[i];
  let remainingDraws = draws;
  for (let i = from; i < to; i++) {
    const count = counts[i];
    const taken =
      i === to - 1
        ? remainingDraws
        : hypergeometricKernel(random, logFactorials, remainingItems, count, remainingDraws);
    out[i] = taken;
    remainingItems -= count;
    remainingDraws -= taken;
  }
}

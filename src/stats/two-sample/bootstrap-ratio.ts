import { type Random, randomInt } from '../../util/random.js';

/** A ratio of two builds' figures with its bootstrap interval. */
export interface RatioInterval {
  /** The geometric mean of head_i / base_i over the rounds. */
  ratio: number;
  low: number;
  high: number;
  rounds: number;
}

function geometricMean(logs: readonly number[], pick: (i: number) => number): number {
  let sum = 0;
  for (let i = 0; i < logs.length; i++) sum += logs[pick(i)];
  return Math.exp(sum / logs.length);
}

/**
 * bootstrapRatio(base, head, confidence, resamples, random) is the speed ratio of two
 * builds measured in interleaved rounds (base_i and head_i taken side by side, so a
 * load spike hits both): the geometric mean of head_i / base_i, and its percentile
 * bootstrap interval, the rounds resampled with replacement `resamples` times with the
 * seeded `random` (Efron & Tibshirani 1993, ch. 13). Kernel: equal lengths >= 2,
 * positive figures. O(resamples × rounds).
 *
 * @param base - the base build's figure in each round
 * @param head - the head build's figure in each round
 * @param confidence - the interval's coverage, e.g. 0.95
 * @param resamples - bootstrap resamples, e.g. 2000
 * @param random - a seeded generator (createRandom)
 * @returns the ratio head/base and its interval
 * @example bootstrapRatio([10, 11, 10], [8, 9, 8], 0.95, 2000, createRandom('x')).ratio // 0.8...
 */
export function bootstrapRatio(
  base: readonly number[],
  head: readonly number[],
  confidence: number,
  resamples: number,
  random: Random,
): RatioInterval {
  const logs = base.map((value, i) => Math.log(head[i] / value));
  const ratio = geometricMean(logs, (i) => i);
  const draws = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) draws[r] = geometricMean(logs, () => randomInt(random, logs.length));
  draws.sort();
  const tail = (1 - confidence) / 2;
  const at = (q: number) => draws[Math.min(resamples - 1, Math.max(0, Math.floor(q * resamples)))];
  return { ratio, low: at(tail), high: at(1 - tail), rounds: logs.length };
}

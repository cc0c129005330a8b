import { describe, expect, it } from 'vitest';
import { BernoulliGlrStream } from '../../src/stats/bernoulli-glr-stream.js';
import { createRandom } from '../../src/util/random.js';

/**
 * Runs add() and addWithin() side by side on one stream of observations: whenever
 * addWithin() skips, add()'s statistic must lie strictly between the thresholds; whenever it
 * evaluates, and after settle() at any point, the two statistics must be equal to the bit.
 * Returns how many of the updates before add()'s first crossing (where an audit stops)
 * addWithin() skipped, and how many updates that was.
 */
function compareStreams(
  rateA: number,
  rateB: number,
  tolerance: number,
  upper: number,
  lower: number,
  length: number,
  seed: string,
): { skipped: number; beforeCrossing: number } {
  const random = createRandom(seed);
  const reference = new BernoulliGlrStream();
  const within = new BernoulliGlrStream();
  reference.reset(tolerance);
  within.reset(tolerance);
  let skipped = 0;
  let beforeCrossing = 0;
  let crossed = false;
  for (let t = 0; t < length; t++) {
    const group = random() < 0.4 ? 1 : 0;
    const value = random() < (group === 1 ? rateB : rateA) ? 1 : 0;
    reference.add(group, value);
    if (!crossed) beforeCrossing++;
    if (within.addWithin(group, value, upper, lower)) {
      expect(Object.is(within.statistic, reference.statistic), `update ${t}`).toBe(true);
    } else {
      if (!crossed) skipped++;
      expect(reference.statistic < upper && reference.statistic > lower, `update ${t}: skipped a crossing`).toBe(true);
      // Settle now and then: the statistic it gives is add()'s.
      if (t % 97 === 0) {
        within.settle();
        expect(Object.is(within.statistic, reference.statistic), `update ${t} settled`).toBe(true);
      }
    }
    if (reference.ready && (reference.statistic >= upper || reference.statistic <= lower)) crossed = true;
  }
  within.settle();
  expect(Object.is(within.statistic, reference.statistic)).toBe(true);
  return { skipped, beforeCrossing };
}

describe('BernoulliGlrStream.addWithin(group, value, upper, lower)', () => {
  // Wald's thresholds of paper A at alpha = 0.05, beta = 0.2: log(0.8 / 0.05) and log(0.2 / 0.95).
  const upper = Math.log(0.8 / 0.05);
  const lower = Math.log(0.2 / 0.95);

  it(
    "skips only updates whose statistic add() puts strictly between the thresholds, and settles to add()'s bit " +
      'for bit',
    () => {
      const cases: Array<[number, number, number]> = [
        [0.4, 0.38, 0.05], // compliant, accept side
        [0.42, 0.3, 0.05], // violating
        [0.5, 0.5, 0.02], // gap 0: both faces in play
        [0.02, 0.01, 0.05], // rates near 0: maximisers at the interval ends
        [0.97, 0.99, 0.05], // rates near 1
        [0.4, 0.45, 0.05], // gap at the tolerance
      ];
      let skipped = 0;
      let beforeCrossing = 0;
      for (const [rateA, rateB, tolerance] of cases) {
        for (let seed = 0; seed < 4; seed++) {
          const counts = compareStreams(rateA, rateB, tolerance, upper, lower, 3000, `${rateA}-${rateB}-${seed}`);
          skipped += counts.skipped;
          beforeCrossing += counts.beforeCrossing;
        }
      }
      // The bound must also be useful: about 95% of the updates an audit makes skip the logarithms here (68% with
      // the chi-square bound of the block's KL that came before the curvature bound).
      expect(skipped).toBeGreaterThan(0.9 * beforeCrossing);
    },
  );

  it('with thresholds that every statistic crosses it evaluates every defined update', () => {
    // upper = lower = 0: every statistic is >= 0 or <= 0, so no update may be skipped once both groups are seen.
    const random = createRandom('always');
    const stream = new BernoulliGlrStream();
    stream.reset(0.05);
    let evaluated = 0;
    let defined = 0;
    for (let t = 0; t < 500; t++) {
      const group = t % 3 === 0 ? 1 : 0;
      if (stream.addWithin(group, random() < 0.4 ? 1 : 0, 0, 0)) evaluated++;
      if (stream.ready) defined++;
    }
    expect(evaluated).toBe(defined);
  });
});

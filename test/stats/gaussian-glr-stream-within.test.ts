import { describe, expect, it } from 'vitest';
import { GaussianGlrStream } from '../../src/stats/gaussian-glr-stream.js';
import { GuardedGaussianGlrStream } from '../../src/stats/guarded-gaussian-glr-stream.js';
import { createRandom } from '../../src/util/random.js';

/** A standard normal draw (Box-Muller) from the seeded generator. */
function normal(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/**
 * Runs add() and addWithin() side by side on one stream of observations (group b with share
 * 0.4, values normal with the given means and spread): whenever addWithin() skips, add()'s
 * statistic must lie strictly between the thresholds; whenever it evaluates, and after settle()
 * at any point, the two statistics must be equal to the bit. Returns how many of the updates
 * before add()'s first crossing (where an audit stops) addWithin() skipped, and how many
 * updates that was.
 */
function compareStreams(
  make: () => GaussianGlrStream,
  meanA: number,
  meanB: number,
  spread: number,
  tolerance: number,
  thresholds: readonly [number, number],
  length: number,
  seed: string,
): { skipped: number; beforeCrossing: number } {
  const [upper, lower] = thresholds;
  const random = createRandom(seed);
  const reference = make();
  const within = make();
  reference.reset(tolerance);
  within.reset(tolerance);
  let skipped = 0;
  let beforeCrossing = 0;
  let crossed = false;
  for (let t = 0; t < length; t++) {
    const group = random() < 0.4 ? 1 : 0;
    const value = (group === 1 ? meanB : meanA) + spread * normal(random);
    reference.add(group, value);
    if (!crossed) beforeCrossing++;
    if (within.addWithin(group, value, upper, lower)) {
      expect(Object.is(within.statistic, reference.statistic), `update ${t}`).toBe(true);
    } else {
      if (!crossed) skipped++;
      expect(reference.statistic < upper && reference.statistic > lower, `update ${t}: skipped a crossing`).toBe(true);
      if (t % 89 === 0) {
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

describe('GaussianGlrStream.addWithin(group, value, upper, lower)', () => {
  // Wald's thresholds of paper A at alpha = 0.05, beta = 0.2: log(0.8 / 0.05) and log(0.2 / 0.95).
  const wald = [Math.log(0.8 / 0.05), Math.log(0.2 / 0.95)] as const;

  it("skips only updates whose statistic add() puts strictly between the thresholds, and settles to add()'s bit for bit", () => {
    const cases: Array<[number, number, number, number]> = [
      [0.4, 0.38, 0.3, 0.05], // compliant, accept side
      [0.42, 0.3, 0.3, 0.05], // violating
      [0.5, 0.5, 0.1, 0.02], // gap 0
      [0.4, 0.45, 0.3, 0.05], // gap at the tolerance
      [0.4, 0.6, 1e-3, 0.05], // tiny spread: large statistics at once
      [-2, 3, 5, 0.5], // logits
    ];
    let skipped = 0;
    let beforeCrossing = 0;
    for (const [meanA, meanB, spread, tolerance] of cases) {
      for (const make of [() => new GaussianGlrStream(), () => new GuardedGaussianGlrStream()]) {
        for (let seed = 0; seed < 3; seed++) {
          const seedText = `${meanA}-${meanB}-${spread}-${seed}`;
          const counts = compareStreams(make, meanA, meanB, spread, tolerance, wald, 3000, seedText);
          skipped += counts.skipped;
          beforeCrossing += counts.beforeCrossing;
        }
      }
    }
    // The test must also be useful: nearly every update an audit makes skips the logarithm (99.8% here when written).
    expect(skipped).toBeGreaterThan(0.9 * beforeCrossing);
  });

  it('with thresholds that every statistic crosses it evaluates every defined update', () => {
    // upper = lower = 0 (not lower < 0 < upper): no update may be skipped once the statistic is defined.
    const random = createRandom('always');
    const stream = new GaussianGlrStream();
    stream.reset(0.05);
    let evaluated = 0;
    let defined = 0;
    for (let t = 0; t < 500; t++) {
      if (stream.addWithin(t % 3 === 0 ? 1 : 0, random(), 0, 0)) evaluated++;
      if (stream.ready) defined++;
    }
    expect(evaluated).toBe(defined);
    expect(defined).toBeGreaterThan(400);
  });
});

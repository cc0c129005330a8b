import { describe, expect, it } from 'vitest';
import { LazyBernoulliGlr } from '../../../src/audit/calibration/lazy-bernoulli-glr.js';
import { BernoulliGlrStream } from '../../../src/stats/bernoulli-glr-stream.js';
import { createRandom } from '../../../src/util/random.js';

/** A random 0/1 stream of two groups with the given rates, and the statistic at every step (BernoulliGlrStream). */
function pathOf(seed: string, rateA: number, rateB: number, steps: number, tolerance: number) {
  const random = createRandom(seed);
  const stream = new BernoulliGlrStream();
  stream.reset(tolerance);
  const observations: Array<[number, number]> = [];
  const statistics: number[] = [];
  for (let t = 0; t < steps; t++) {
    const group = random() < 0.4 ? 1 : 0;
    const value = random() < (group === 0 ? rateA : rateB) ? 1 : 0;
    observations.push([group, value]);
    stream.add(group, value);
    statistics.push(stream.ready ? stream.statistic : Number.NaN);
  }
  return { observations, statistics };
}

describe('LazyBernoulliGlr', () => {
  it('advance() stops where add() and mayReach() per query would, with the same statistics', () => {
    for (const [index, [rateA, rateB, minimum]] of [
      [0.3, 0.3, 1],
      [0.3, 0.42, 1],
      [0.5, 0.47, 5],
      [0.05, 0.2, 3],
    ].entries()) {
      // A shared path as CoupledQueries draws it: group and rank; a cell with positives p reads 1 below p.
      const random = createRandom(`advance-${index}`);
      const steps = 1500;
      const groups = new Uint8Array(steps);
      const ranks = new Int32Array(steps);
      for (let t = 0; t < steps; t++) {
        groups[t] = random() < 0.4 ? 1 : 0;
        ranks[t] = Math.floor(random() * 1000);
      }
      const [positivesA, positivesB] = [Math.round(1000 * rateA), Math.round(1000 * rateB)];
      const [upper, lower] = [2, -1];
      const stepped: Array<[number, number]> = [];
      const each = new LazyBernoulliGlr(steps);
      each.reset(0.05);
      let seenA = 0;
      let seenB = 0;
      for (let t = 0; t < steps; t++) {
        const group = groups[t];
        const value = ranks[t] < (group === 0 ? positivesA : positivesB) ? 1 : 0;
        if (group === 0) seenA++;
        else seenB++;
        each.add(group, value);
        if (seenA >= minimum && seenB >= minimum && each.mayReach(upper, lower)) stepped.push([t + 1, each.evaluate()]);
      }
      const advanced: Array<[number, number]> = [];
      const fused = new LazyBernoulliGlr(steps);
      fused.reset(0.05);
      // In blocks, as the coupled paths call it.
      for (let t = 0; t < steps; ) {
        const end = Math.min(steps, t + 256);
        while (t < end) {
          t = fused.advance(groups, ranks, t, end, positivesA, positivesB, minimum, upper, lower);
          if (fused.reached) advanced.push([t, fused.evaluate()]);
        }
      }
      expect(stepped.length).toBeGreaterThan(5);
      expect(stepped.length).toBeLessThan(steps);
      expect(advanced).toEqual(stepped);
    }
  });

  it('evaluate() equals BernoulliGlrStream.statistic at every step (to 1e-9), whatever was skipped before', () => {
    const { observations, statistics } = pathOf('equal', 0.3, 0.38, 600, 0.05);
    const glr = new LazyBernoulliGlr(600);
    glr.reset(0.05);
    observations.forEach(([group, value], t) => {
      glr.add(group, value);
      // Evaluate at irregular times, so the warm starts come from earlier evaluations.
      if (glr.ready && t % 7 !== 3) expect(glr.evaluate()).toBeCloseTo(statistics[t], 9);
    });
  });

  it(
    'mayReach(above, below) is true at every step where the statistic reaches a target (never skips a ' + 'crossing)',
    () => {
      const cases: Array<[string, number, number, number]> = [
        ['compliant', 0.5, 0.5, 0.05],
        ['violating', 0.2, 0.3, 0.05],
        ['edge rates', 0.01, 0.02, 0.05],
        ['all zero', 0, 0, 0.1],
        ['all one', 1, 1, 0.1],
      ];
      let skipped = 0;
      let crossings = 0;
      for (const [seed, rateA, rateB, tolerance] of cases) {
        const { observations, statistics } = pathOf(seed, rateA, rateB, 2000, tolerance);
        for (const [above, below] of [
          [0.05, -0.05],
          [0.5, -0.5],
          [2, -1],
          [6, -3],
        ]) {
          const glr = new LazyBernoulliGlr(2000);
          glr.reset(tolerance);
          observations.forEach(([group, value], t) => {
            glr.add(group, value);
            if (!glr.ready) return;
            const reaches = statistics[t] >= above || statistics[t] <= below;
            if (reaches) crossings++;
            if (glr.mayReach(above, below)) glr.evaluate();
            else {
              skipped++;
              expect(reaches).toBe(false);
            }
          });
        }
      }
      // The check can fail: the bound skips most steps, and crossings happen.
      expect(skipped).toBeGreaterThan(1000);
      expect(crossings).toBeGreaterThan(100);
    },
  );

  it('mayReach is true before the first evaluation', () => {
    const glr = new LazyBernoulliGlr(10);
    glr.reset(0.05);
    glr.add(0, 1);
    glr.add(1, 0);
    expect(glr.mayReach(100, -100)).toBe(true);
    glr.evaluate();
    expect(glr.mayReach(100, -100)).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { GaussianGlrStream } from '../../src/stats/gaussian-glr-stream.js';
import { QUERY_NAN } from '../../src/stats/glr-stream.js';
import { GuardedGaussianGlrStream } from '../../src/stats/guarded-gaussian-glr-stream.js';
import { aleaStateOf, createRandom, partialShuffleStep } from '../../src/util/random.js';

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

  const title =
    "skips only updates whose statistic add() puts strictly between the thresholds, and settles to add()'s bit";
  it(`${title} for bit`, () => {
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

describe('GaussianGlrStream.queryShuffled(order, swaps, group, value, cap, alea, ...)', () => {
  /**
   * The loop queryShuffled writes out, one call per query: a partial shuffle step of the order,
   * addWithin() on the row, a stop at the first evaluated crossing with `minimum` per group, and
   * the queried values summed per group as a fixed-sample decision adds them.
   */
  function reference(
    group: Uint8Array,
    value: Float64Array,
    cap: number,
    seed: string,
    thresholds: readonly [number, number],
    minimum: number,
  ) {
    const [upper, lower] = thresholds;
    const order = Int32Array.from(group, (_, row) => row);
    const swaps = new Int32Array(cap);
    const random = createRandom(seed);
    const stream = new GaussianGlrStream();
    stream.reset(0.05);
    const sums = [0, 0, 0, 0];
    let position = 0;
    let crossing = 0;
    while (position < cap) {
      swaps[position] = partialShuffleStep(order, position, random);
      const row = order[position]!;
      position++;
      const g = group[row]!;
      sums[2 * g] += 1;
      sums[2 * g + 1] += value[row]!;
      if (!stream.addWithin(g, value[row]!, upper, lower)) continue;
      const [countA, countB] = stream.counts;
      if ((stream.statistic >= upper || stream.statistic <= lower) && countA >= minimum && countB >= minimum) {
        crossing = stream.statistic >= upper ? 1 : -1;
        break;
      }
    }
    stream.settle();
    return { position, crossing, statistic: stream.statistic, sums, order, swaps, next: random() };
  }

  it('walks the rows, statistics and sums of that loop to the bit, from zeros, negative values and ties', () => {
    const wald = [Math.log(0.8 / 0.05), Math.log(0.2 / 0.95)] as const;
    const stops = new Set<number>();
    const cases: Array<[string, number, readonly [number, number], number]> = [
      ['compliant scores', 0.02, wald, 1],
      ['violating logits', 0.4, wald, 1],
      ['start rule', 0.1, wald, 40],
      ['no bound', 0.1, [0, 0], 1],
      ['never crossing', 0.1, [1e9, -1e9], 1],
    ];
    for (const [name, shift, thresholds, minimum] of cases) {
      const random = createRandom(name);
      const size = 5000;
      const group = Uint8Array.from({ length: size }, () => (random() < 0.4 ? 1 : 0));
      // Values on a coarse grid (ties, exact zeros, -0 and negatives) plus the group's shift.
      const value = Float64Array.from(group, (g) => {
        const grid = Math.round(8 * (random() - 0.5)) / 4;
        return grid === 0 && random() < 0.5 ? -0 : grid + g * shift;
      });
      for (let r = 0; r < 4; r++) {
        const seed = `${name}-${r}`;
        const expected = reference(group, value, 3000, seed, thresholds, minimum);
        const order = Int32Array.from(group, (_, row) => row);
        const swaps = new Int32Array(3000);
        const random2 = createRandom(seed);
        const stream = new GaussianGlrStream();
        stream.reset(0.05);
        const queried = new Float64Array(4);
        const [upper, lower] = thresholds;
        const position = stream.queryShuffled(
          order,
          swaps,
          group,
          value,
          3000,
          aleaStateOf(random2)!,
          upper,
          lower,
          minimum,
          queried,
        );
        stream.settle();
        expect(stream.crossing).not.toBe(QUERY_NAN);
        expect([position, stream.crossing]).toEqual([expected.position, expected.crossing]);
        expect(Object.is(stream.statistic, expected.statistic), `${seed} statistic`).toBe(true);
        for (let i = 0; i < 4; i++) expect(Object.is(queried[i], expected.sums[i]), `${seed} sum ${i}`).toBe(true);
        expect(order).toEqual(expected.order);
        expect(swaps.subarray(0, position)).toEqual(expected.swaps.subarray(0, position));
        expect(random2()).toBe(expected.next);
        stops.add(expected.crossing);
      }
    }
    expect([...stops].sort()).toEqual([-1, 0, 1]);
  });
});

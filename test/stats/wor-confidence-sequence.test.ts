import { describe, expect, it } from 'vitest';
import { clopperPearsonLower } from '../../src/stats/clopper-pearson.js';
import { WorConfidenceSequence } from '../../src/stats/wor-confidence-sequence.js';
import { createRandom, type Random, shuffleInPlace } from '../../src/util/random.js';

/** Populations of several shapes: decisions at rates near 0, 1/2, near 1, small pools, and scores. */
function populations(): Array<{ name: string; values: Float64Array }> {
  const decisions = (size: number, ones: number) => Float64Array.from({ length: size }, (_, i) => (i < ones ? 1 : 0));
  const scores = (size: number, f: (u: number) => number) =>
    Float64Array.from({ length: size }, (_, i) => f((i + 0.5) / size));
  return [
    { name: 'decisions, rate 0.02 of 1000', values: decisions(1000, 20) },
    { name: 'decisions, rate 0.5 of 1000', values: decisions(1000, 500) },
    { name: 'decisions, rate 0.98 of 1000', values: decisions(1000, 980) },
    { name: 'decisions, 3 of 7', values: decisions(7, 3) },
    { name: 'decisions, 1 of 2', values: decisions(2, 1) },
    { name: 'scores, uniform on [0, 1], 400', values: scores(400, (u) => u) },
    { name: 'scores, piled near 0, 400', values: scores(400, (u) => u ** 6) },
    {
      name: 'scores, two humps near 0.05 and 0.95, 400',
      values: scores(400, (u) => (u < 0.7 ? 0.05 + 0.03 * u : 0.95 - 0.03 * u)),
    },
  ];
}

/**
 * Draws the whole population in a uniformly random order and reports whether the sequence
 * ever missed the mean. Sums of scores in different orders differ in the last bits, so the
 * mean counts as covered within 1e-12 (rounding, not statistics).
 */
function everMisses(values: Float64Array, random: Random, sequence: WorConfidenceSequence): boolean {
  let total = 0;
  for (const v of values) total += v;
  const mean = total / values.length;
  const order = shuffleInPlace(random, Float64Array.from(values));
  sequence.reset();
  let missed = false;
  for (const value of order) {
    sequence.add(value);
    if (!(sequence.lower <= mean + 1e-12 && mean - 1e-12 <= sequence.upper)) missed = true;
  }
  expect(Math.abs(sequence.lower - mean)).toBeLessThan(1e-12);
  expect(sequence.upper).toBe(sequence.lower);
  return missed;
}

describe('WorConfidenceSequence(populationSize, alpha)', () => {
  it(
    'add(value) keeps the mean inside [lower, upper] at all times, exhaustion included, with probability >= 1 - ' +
      'alpha (1000 seeded permutations per shape)',
    () => {
      const alpha = 0.1;
      const replicates = 1000;
      for (const { name, values } of populations()) {
        const sequence = new WorConfidenceSequence(values.length, alpha);
        const random = createRandom(`coverage:${name}`);
        let misses = 0;
        for (let r = 0; r < replicates; r++) if (everMisses(values, random, sequence)) misses++;
        // Consistent with P(miss) <= alpha: the one-sided 99.9% Clopper-Pearson lower bound of the
        // miss rate must not exceed alpha.
        expect(clopperPearsonLower(misses, replicates, 0.999), name).toBeLessThanOrEqual(alpha);
      }
    },
  );

  it(
    'the same check catches a sequence that is not anytime-valid (a fixed-sample 90% normal interval watched ' +
      'after every draw)',
    () => {
      const values = Float64Array.from({ length: 1000 }, (_, i) => (i < 500 ? 1 : 0));
      const random = createRandom('naive');
      let misses = 0;
      const replicates = 1000;
      for (let r = 0; r < replicates; r++) {
        const order = shuffleInPlace(random, Float64Array.from(values));
        let sum = 0;
        let missed = false;
        for (let n = 1; n <= 200; n++) {
          sum += order[n - 1];
          const centre = sum / n;
          const half = 1.6449 * Math.sqrt(Math.max(centre * (1 - centre), 1e-9) / n);
          if (Math.abs(centre - 0.5) > half) missed = true;
        }
        if (missed) misses++;
      }
      expect(clopperPearsonLower(misses, replicates, 0.999)).toBeGreaterThan(0.1);
    },
  );

  it(
    'lower and upper equal the mean once every value is drawn, and a population of one is known after one ' + 'draw',
    () => {
      const sequence = new WorConfidenceSequence(4, 0.05);
      for (const value of [0.9, 0.1, 0.5, 0.2]) sequence.add(value);
      expect(sequence.lower).toBe((0.9 + 0.1 + 0.5 + 0.2) / 4);
      expect(sequence.upper).toBe(sequence.lower);
      const single = new WorConfidenceSequence(1, 0.05);
      single.add(0.37);
      expect([single.lower, single.upper]).toEqual([0.37, 0.37]);
    },
  );

  it('the bounds stay within what the draws allow: [S/N, (S + N - n)/N], and shrink monotonically', () => {
    const size = 50;
    const random = createRandom('deterministic-range');
    const sequence = new WorConfidenceSequence(size, 0.05);
    let sum = 0;
    let lower = 0;
    let upper = 1;
    for (let n = 1; n <= size; n++) {
      const value = random() < 0.3 ? 1 : 0;
      sum += value;
      sequence.add(value);
      expect(sequence.lower).toBeGreaterThanOrEqual(sum / size);
      expect(sequence.upper).toBeLessThanOrEqual((sum + size - n) / size);
      expect(sequence.lower).toBeGreaterThanOrEqual(lower);
      expect(sequence.upper).toBeLessThanOrEqual(upper);
      lower = sequence.lower;
      upper = sequence.upper;
    }
  });

  it('all-zero and all-one populations: the lower (upper) bound stays at 0 (1) and the other closes in', () => {
    const zeros = new WorConfidenceSequence(100, 0.05);
    const ones = new WorConfidenceSequence(100, 0.05);
    for (let n = 1; n <= 100; n++) {
      zeros.add(0);
      ones.add(1);
      expect(zeros.lower).toBe(0);
      expect(ones.upper).toBe(1);
    }
    expect(zeros.upper).toBe(0);
    expect(ones.lower).toBe(1);
  });

  it('reset() forgets everything: the same draws give the same bounds again', () => {
    const sequence = new WorConfidenceSequence(30, 0.1);
    const draws = Array.from({ length: 20 }, (_, i) => (i % 3 === 0 ? 1 : 0.25));
    const run = () =>
      draws.map((value) => {
        sequence.add(value);
        return [sequence.lower, sequence.upper];
      });
    const first = run();
    sequence.reset();
    expect(run()).toEqual(first);
  });
});

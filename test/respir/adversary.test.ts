import { describe, expect, it } from 'vitest';
import { bestEffortManipulation, bestManipulation, fewestFlipsToGap } from '../../src/respir/adversary.js';
import { ceilFlipCount } from '../../src/respir/flip-count.js';
import { type GroupCounts, gapOf } from '../../src/respir/group-counts.js';
import { vanillaFlipBound } from '../../src/respir/vanilla-flip-bound.js';
import { InputError } from '../../src/util/errors.js';
import { createRandom } from '../../src/util/random.js';

/** Every subset of rows flipped: the fewest flips reaching |gap| ≤ target, and the lowest |gap| per budget. */
function exhaustive(counts: GroupCounts, target: number, budget: number) {
  const rows: Array<[number, number]> = [];
  for (const group of [0, 1]) {
    for (let i = 0; i < counts.sizes[group]; i++) rows.push([group, i < counts.positives[group] ? 1 : 0]);
  }
  let fewest = Number.POSITIVE_INFINITY;
  let lowestGap = Number.POSITIVE_INFINITY;
  let lowestGapFlips = 0;
  for (let mask = 0; mask < 1 << rows.length; mask++) {
    const positives = [0, 0];
    let flips = 0;
    rows.forEach(([group, decision], index) => {
      const flipped = (mask >> index) & 1;
      flips += flipped;
      positives[group] += flipped ? 1 - decision : decision;
    });
    const gap = Math.abs(positives[1] / counts.sizes[1] - positives[0] / counts.sizes[0]);
    if (gap <= target + 1e-12) fewest = Math.min(fewest, flips);
    if (
      flips <= budget &&
      (gap < lowestGap - 1e-12 || (Math.abs(gap - lowestGap) <= 1e-12 && flips < lowestGapFlips))
    ) {
      lowestGap = gap;
      lowestGapFlips = flips;
    }
  }
  return { fewest, lowestGap, lowestGapFlips };
}

describe('fewestFlipsToGap(counts, targetGap)', () => {
  it('matches exhaustive search over every subset of flipped rows on 300 small cases', () => {
    const random = createRandom('adversary-exhaustive');
    for (let trial = 0; trial < 300; trial++) {
      const sizes: [number, number] = [1 + Math.floor(random() * 7), 1 + Math.floor(random() * 5)];
      const positives: [number, number] = [
        Math.floor(random() * (sizes[0] + 1)),
        Math.floor(random() * (sizes[1] + 1)),
      ];
      const counts = { sizes, positives };
      const target = [0, 0.05, 0.1, 0.2, 0.3][Math.floor(random() * 5)];
      const truth = exhaustive(counts, target, 0);
      const result = fewestFlipsToGap(counts, target);
      if (truth.fewest === Number.POSITIVE_INFINITY) {
        expect(result, JSON.stringify({ counts, target })).toBeNull();
      } else {
        expect(result?.flips, JSON.stringify({ counts, target })).toBe(truth.fewest);
        expect(Math.abs(result!.gap)).toBeLessThanOrEqual(target + 1e-12);
      }
    }
  });
  it('handles the overshoot case: one flip of a 2-row group moves too far, and is corrected', () => {
    // sizes [10, 2], positives [1, 1]: gap 0.4; lowering group 1 gives −0.1, past a 0.05
    // target; greedy continuation would raise group 0 four times (4 flips), but lowering
    // group 0's one positive as well gives gap 0 in 2 flips, the exhaustive optimum.
    const counts = { sizes: [10, 2] as const, positives: [1, 1] as const };
    expect(fewestFlipsToGap(counts, 0.05)).toMatchObject({ flips: 2, groupOneLowered: 1, groupZeroRaised: -1, gap: 0 });
    expect(exhaustive(counts, 0.05, 0).fewest).toBe(2);
  });
  it('equals Proposition 1 when the smaller group has room: ⌈(d − ε)·n_min⌉ flips of the smaller group', () => {
    // a balanced 400-row audit set with rates 0.53 and 0.50: hiding 0.01 above ε = 0.02 takes 2 flips (paper B §3.2)
    const counts = { sizes: [200, 200] as const, positives: [100, 106] as const };
    expect(gapOf(counts)).toBeCloseTo(0.03, 12);
    expect(fewestFlipsToGap(counts, 0.02)?.flips).toBe(2);
    expect(vanillaFlipBound(gapOf(counts), 0.02, 200)).toBe(2);
    // CCD-gender-like candidate set: N₁ = 5350 (smaller), N₀ = 8150
    const ccd = { sizes: [8150, 5350] as const, positives: [1800, 1332] as const };
    const gap = gapOf(ccd);
    const result = fewestFlipsToGap(ccd, gap / 2)!;
    expect(result.flips).toBe(ceilFlipCount((gap / 2) * 5350));
    expect(Math.abs(result.gap)).toBeLessThanOrEqual(gap / 2);
  });
  it('asks for nothing when the gap is already within target, and works for negative gaps', () => {
    expect(fewestFlipsToGap({ sizes: [10, 10], positives: [5, 5] }, 0)).toMatchObject({ flips: 0 });
    const negative = fewestFlipsToGap({ sizes: [200, 200], positives: [106, 100] }, 0.02)!;
    expect(negative.flips).toBe(2);
    expect(negative.gap).toBeCloseTo(-0.02, 12);
  });
  it('throws InputError on bad counts or a negative target', () => {
    expect(() => fewestFlipsToGap({ sizes: [0, 3], positives: [0, 1] }, 0.1)).toThrow(InputError);
    expect(() => fewestFlipsToGap({ sizes: [3, 3], positives: [4, 1] }, 0.1)).toThrow(/group 0 positives/);
    expect(() => fewestFlipsToGap({ sizes: [3, 3], positives: [1, 1] }, -0.1)).toThrow(/targetGap/);
  });
});

describe('bestManipulation(counts, maxFlips)', () => {
  it('reaches the lowest |gap| any subset of at most maxFlips flips reaches (exhaustive, 200 cases)', () => {
    const random = createRandom('adversary-budget');
    for (let trial = 0; trial < 200; trial++) {
      const sizes: [number, number] = [1 + Math.floor(random() * 6), 1 + Math.floor(random() * 5)];
      const positives: [number, number] = [
        Math.floor(random() * (sizes[0] + 1)),
        Math.floor(random() * (sizes[1] + 1)),
      ];
      const budget = Math.floor(random() * 5);
      const truth = exhaustive({ sizes, positives }, 0, budget);
      const result = bestManipulation({ sizes, positives }, budget);
      const context = JSON.stringify({ sizes, positives, budget });
      expect(Math.abs(result.gap), context).toBeCloseTo(truth.lowestGap, 12);
      expect(result.flips, context).toBe(truth.lowestGapFlips);
    }
  });
  it('spends no flips with a zero budget and throws on a fractional budget', () => {
    const untouched = bestManipulation({ sizes: [5, 5], positives: [1, 4] }, 0);
    expect(untouched.flips).toBe(0);
    expect(untouched.gap).toBeCloseTo(0.6, 12);
    expect(() => bestManipulation({ sizes: [5, 5], positives: [1, 4] }, 1.5)).toThrow(/maxFlips/);
  });
});

describe('bestEffortManipulation(counts)', () => {
  it("brings the gap within 1/(2·N_max) of zero with about ⌈|d|·N_min⌉ flips, the paper's best-effort count", () => {
    // CCD-gender-sized C: N₀ = 8150, N₁ = 5350, d = 1500/5350 − 2050/8150 ≈ 0.0288
    const counts = { sizes: [8150, 5350] as const, positives: [2050, 1500] as const };
    const result = bestEffortManipulation(counts);
    expect(Math.abs(result.gap)).toBeLessThanOrEqual(1 / (2 * 8150) + 1e-15);
    const paperCount = ceilFlipCount(Math.abs(gapOf(counts)) * 5350);
    expect(result.flips).toBeGreaterThanOrEqual(paperCount - 1);
    expect(result.flips).toBeLessThanOrEqual(paperCount + 2);
    // an exact zero needs far more flips here: bestManipulation with the whole budget finds it
    expect(bestManipulation(counts, 13_500).flips).toBeGreaterThan(result.flips);
  });
  it('is the fewest flips to that target on small cases (exhaustive search)', () => {
    const random = createRandom('best-effort');
    for (let trial = 0; trial < 100; trial++) {
      const sizes: [number, number] = [1 + Math.floor(random() * 6), 1 + Math.floor(random() * 5)];
      const positives: [number, number] = [
        Math.floor(random() * (sizes[0] + 1)),
        Math.floor(random() * (sizes[1] + 1)),
      ];
      const truth = exhaustive({ sizes, positives }, 1 / (2 * Math.max(...sizes)), 0);
      expect(bestEffortManipulation({ sizes, positives }).flips, JSON.stringify({ sizes, positives })).toBe(
        truth.fewest,
      );
    }
  });
});

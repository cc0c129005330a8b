import { describe, expect, it } from 'vitest';
import { exactVanillaFlips } from '../../src/respir/exact-vanilla-flips.js';
import { vanillaFlipBound } from '../../src/respir/vanilla-flip-bound.js';
import { countGapExceedsTolerance } from '../../src/stats/count-gap-comparison.js';
import { InputError } from '../../src/util/errors.js';
import { createRandom } from '../../src/util/random.js';

/** Every (x0′, x1′): the nearest in ℓ1 whose gap the audit does not reject. */
function exhaustive(sizes: [number, number], positives: [number, number], tolerance: number): number | null {
  let best: number | null = null;
  for (let x0 = 0; x0 <= sizes[0]; x0++) {
    for (let x1 = 0; x1 <= sizes[1]; x1++) {
      if (countGapExceedsTolerance(sizes[0], x0, sizes[1], x1, tolerance)) continue;
      const flips = Math.abs(x0 - positives[0]) + Math.abs(x1 - positives[1]);
      if (best === null || flips < best) best = flips;
    }
  }
  return best;
}

describe('exactVanillaFlips(auditCounts, tolerance)', () => {
  it('equals the exhaustive minimum over every flip of S, compared as the audit compares', () => {
    const random = createRandom('exact-vanilla-flips');
    for (let trial = 0; trial < 400; trial++) {
      const sizes: [number, number] = [1 + Math.floor(random() * 30), 1 + Math.floor(random() * 30)];
      const positives: [number, number] = [
        Math.floor(random() * (sizes[0] + 1)),
        Math.floor(random() * (sizes[1] + 1)),
      ];
      const tolerance = [0, 0.01, 0.05, 0.1, 0.3, 1 / 7][Math.floor(random() * 6)];
      const result = exactVanillaFlips({ sizes, positives }, tolerance);
      expect(result === null ? null : result.flips, JSON.stringify({ sizes, positives, tolerance })).toBe(
        exhaustive(sizes, positives, tolerance),
      );
    }
  });

  it(
    'equals Proposition 1 when the smaller group has enough outputs to flip and its step 1/n_min ≤ 2ε, and can ' +
      'exceed it otherwise',
    () => {
      // Proposition 1 (paper B Eq. 2): ⌈(|d_S| − ε)·n_min⌉. Balanced 400-row S, hiding 0.01: 2 flips (paper B §3.2).
      expect(exactVanillaFlips({ sizes: [200, 200], positives: [80, 90] }, 0.04)?.flips).toBe(
        vanillaFlipBound(0.05, 0.04, 200),
      );
      expect(vanillaFlipBound(0.05, 0.04, 200)).toBe(2);
      const random = createRandom('exact-vanilla-flips-proposition-1');
      let equal = 0;
      let above = 0;
      for (let trial = 0; trial < 400; trial++) {
        const sizes: [number, number] = [20 + Math.floor(random() * 200), 5 + Math.floor(random() * 60)];
        const positives: [number, number] = [
          Math.floor(random() * (sizes[0] + 1)),
          Math.floor(random() * (sizes[1] + 1)),
        ];
        const tolerance = [0.02, 0.05, 0.1][Math.floor(random() * 3)];
        const gap = positives[1] / sizes[1] - positives[0] / sizes[0];
        const minority = sizes[1] <= sizes[0] ? 1 : 0;
        const bound = vanillaFlipBound(gap, tolerance, sizes[minority]);
        const result = exactVanillaFlips({ sizes, positives }, tolerance);
        const flips = result === null ? Number.POSITIVE_INFINITY : result.flips;
        // Flippable the useful way in the smaller group: its 1s if its rate is the higher, else its 0s.
        const higher = gap > 0 ? 1 : 0;
        const flippable = minority === higher ? positives[minority] : sizes[minority] - positives[minority];
        expect(flips).toBeGreaterThanOrEqual(bound);
        if (flippable >= bound && 1 / sizes[minority] <= 2 * tolerance) {
          expect(flips, JSON.stringify({ sizes, positives, tolerance })).toBe(bound);
          equal++;
        } else if (flips > bound) {
          above++;
        }
      }
      expect(equal).toBeGreaterThan(100);
      expect(above).toBeGreaterThan(0);
    },
  );

  it('throws InputError on bad counts or a negative tolerance', () => {
    expect(() => exactVanillaFlips({ sizes: [0, 5], positives: [0, 1] }, 0.1)).toThrow(InputError);
    expect(() => exactVanillaFlips({ sizes: [5, 5], positives: [1, 1] }, -1)).toThrow(/exactVanillaFlips: tolerance/);
  });
});

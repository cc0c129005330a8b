import { describe, expect, it } from 'vitest';
import { exactVanillaFlips } from '../../../src/respir/exact-vanilla-flips.js';
import { maxGapOf } from '../../../src/respir/multi-group/multi-group-counts.js';
import { multiGroupVanillaFlipBound } from '../../../src/respir/multi-group/multi-group-flip-bounds.js';
import type { MultiGroupForm } from '../../../src/respir/multi-group/multi-group-margin.js';
import { windowMinimalFlips } from '../../../src/respir/multi-group/window-minimal-flips.js';
import { countGapExceedsTolerance, decimalFraction } from '../../../src/stats/count-gap-comparison.js';
import { createRandom } from '../../../src/util/random.js';

/** Passes, compared exactly: every pair within ε (as the audit compares), or min ≥ ρ·max on integers. */
function passes(sizes: number[], positives: number[], form: MultiGroupForm, tolerance: number): boolean {
  if (form.kind === 'difference') {
    for (let i = 0; i < sizes.length; i++) {
      for (let j = i + 1; j < sizes.length; j++) {
        if (countGapExceedsTolerance(sizes[i], positives[i], sizes[j], positives[j], tolerance)) return false;
      }
    }
    return true;
  }
  const { numerator: r, denominator: s } = decimalFraction(form.ratio);
  const { numerator: g, denominator: h } = decimalFraction(tolerance);
  for (let i = 0; i < sizes.length; i++) {
    for (let j = 0; j < sizes.length; j++) {
      // y_i/n_i − ρ·y_j/n_j ≥ γ  ⇔  (s·h·y_i·n_j − r·h·y_j·n_i) ≥ g·s·n_i·n_j
      const left = s * h * BigInt(positives[i] * sizes[j]) - r * h * BigInt(positives[j] * sizes[i]);
      if (left < g * s * BigInt(sizes[i] * sizes[j])) return false;
    }
  }
  return true;
}

/** The fewest flips over every vector of final positives (Π (n_g + 1) of them); null when none passes. */
function exhaustive(sizes: number[], positives: number[], form: MultiGroupForm, tolerance: number): number | null {
  let best = Number.POSITIVE_INFINITY;
  const current = new Array<number>(sizes.length).fill(0);
  const visit = (group: number, cost: number): void => {
    if (cost >= best) return;
    if (group === sizes.length) {
      if (passes(sizes, current, form, tolerance)) best = cost;
      return;
    }
    for (let y = 0; y <= sizes[group]; y++) {
      current[group] = y;
      visit(group + 1, cost + Math.abs(y - positives[group]));
    }
  };
  visit(0, 0);
  return best === Number.POSITIVE_INFINITY ? null : best;
}

describe('windowMinimalFlips(counts, form, threshold)', () => {
  it(
    'equals the exhaustive minimum over every final count vector on 600 small K = 2..4 cases (max-gap and ' + 'ratio)',
    () => {
      const random = createRandom('window-minimal-flips');
      for (let trial = 0; trial < 600; trial++) {
        const groupCount = 2 + Math.floor(random() * 3);
        const sizes = Array.from({ length: groupCount }, () => 1 + Math.floor(random() * (groupCount === 4 ? 7 : 12)));
        const positives = sizes.map((size) => Math.floor(random() * (size + 1)));
        const tolerance = [0, 0.05, 0.1, 0.2, 0.3, 1 / 7, 0.5][Math.floor(random() * 7)];
        const ratio = [0.8, 0.5, 1, 0.25, 2 / 3][Math.floor(random() * 5)];
        const slack = [0, 0, 0.05, 0.1, 0.3][Math.floor(random() * 5)];
        const cases = [
          { form: { kind: 'difference' } as const, threshold: tolerance },
          { form: { kind: 'ratio', ratio } as const, threshold: slack },
        ];
        for (const { form, threshold } of cases) {
          const where = JSON.stringify({ sizes, positives, threshold, form });
          const result = windowMinimalFlips({ sizes, positives }, form, threshold);
          expect(result === null ? null : result.flips, where).toBe(exhaustive(sizes, positives, form, threshold));
          if (result === null) continue;
          expect(passes(sizes, [...result.positives], form, threshold), where).toBe(true);
          expect(
            result.changes.reduce((sum, change) => sum + Math.abs(change), 0),
            where,
          ).toBe(result.flips);
        }
      }
    },
  );

  it('at K = 2 equals exactVanillaFlips (the exact two-group minimum) on 2,000 random audit sets', () => {
    const random = createRandom('window-minimal-flips-k2');
    for (let trial = 0; trial < 2000; trial++) {
      const sizes = [1 + Math.floor(random() * 400), 1 + Math.floor(random() * 400)];
      const positives = sizes.map((size) => Math.floor(random() * (size + 1)));
      const tolerance = [0, 0.01, 0.05, 0.1, 0.3, 1 / 7, 0.028][Math.floor(random() * 7)];
      const two = exactVanillaFlips(
        { sizes: [sizes[0], sizes[1]], positives: [positives[0], positives[1]] },
        tolerance,
      );
      expect(windowMinimalFlips({ sizes, positives }, { kind: 'difference' }, tolerance)?.flips).toBe(two?.flips);
    }
  });

  it('is never below Proposition 1 for K groups, and handles empty and full groups', () => {
    const random = createRandom('window-minimal-flips-proposition-1');
    for (let trial = 0; trial < 500; trial++) {
      const groupCount = 2 + Math.floor(random() * 8);
      const sizes = Array.from({ length: groupCount }, () => 1 + Math.floor(random() * 300));
      const positives = sizes.map((size) => Math.floor(random() * (size + 1)));
      const tolerance = 0.02 + 0.2 * random();
      const flips = windowMinimalFlips({ sizes, positives }, { kind: 'difference' }, tolerance)?.flips;
      expect(flips).toBeGreaterThanOrEqual(
        multiGroupVanillaFlipBound(maxGapOf({ sizes, positives }), tolerance, sizes),
      );
    }
    expect(windowMinimalFlips({ sizes: [5, 5, 5], positives: [0, 5, 0] }, { kind: 'difference' }, 0)?.flips).toBe(5);
    expect(
      windowMinimalFlips({ sizes: [5, 5, 5], positives: [0, 0, 0] }, { kind: 'ratio', ratio: 0.8 }, 0)?.flips,
    ).toBe(0);
    expect(
      windowMinimalFlips({ sizes: [5, 5, 5], positives: [0, 0, 0] }, { kind: 'ratio', ratio: 0.8 }, 0.3),
    ).toBeNull();
    expect(windowMinimalFlips({ sizes: [1], positives: [1] }, { kind: 'difference' }, 0)?.flips).toBe(0);
  });

  it('runs on paper B sizes with a threshold that needs BigInt (ε − γ as a 17-digit decimal)', () => {
    const sizes = [5350, 8150, 3000];
    const positives = [733, 1350, 600];
    const threshold = 0.014 - 0.0047123456789;
    const result = windowMinimalFlips({ sizes, positives }, { kind: 'difference' }, threshold);
    if (result === null) throw new Error('the max-gap always has a passing vector');
    const after = { sizes, positives: [...result.positives] };
    expect(maxGapOf(after)).toBeLessThanOrEqual(threshold + 1e-15);
    expect(result.flips).toBeGreaterThanOrEqual(
      multiGroupVanillaFlipBound(maxGapOf({ sizes, positives }), threshold, sizes),
    );
  });
});

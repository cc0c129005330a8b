import { describe, expect, it } from 'vitest';
import { finitePopulationMargin, hoeffdingMargin } from '../../../src/respir/concentration-margin.js';
import { equalOpportunityFlipBound } from '../../../src/respir/equal-opportunity-flip-bound.js';
import { exactVanillaFlips } from '../../../src/respir/exact-vanilla-flips.js';
import { finitePopulationFlipBound } from '../../../src/respir/finite-population-flip-bound.js';
import { manipulationBounds } from '../../../src/respir/manipulation-bounds.js';
import {
  multiGroupFinitePopulationFlipBound,
  multiGroupRespirFlipBound,
  multiGroupVanillaFlipBound,
} from '../../../src/respir/multi-group/multi-group-flip-bounds.js';
import { multiGroupManipulationBounds } from '../../../src/respir/multi-group/multi-group-manipulation-bounds.js';
import {
  multiGroupFinitePopulationMargin,
  multiGroupHoeffdingMargin,
} from '../../../src/respir/multi-group/multi-group-margin.js';
import {
  multiGroupRatioFlipBound,
  multiGroupRatioVanillaFlipBound,
} from '../../../src/respir/multi-group/multi-group-ratio-flip-bounds.js';
import { respirFlipBound } from '../../../src/respir/respir-flip-bound.js';
import { vanillaFlipBound } from '../../../src/respir/vanilla-flip-bound.js';
import { InputError } from '../../../src/util/errors.js';
import { createRandom, type Random } from '../../../src/util/random.js';

const difference = { kind: 'difference' } as const;

/** A random two-group setting: n_g ≤ N_g, a gap, a tolerance, a δ in (0, ½]. */
function twoGroupSetting(random: Random) {
  const candidate: [number, number] = [2 + Math.floor(random() * 20000), 2 + Math.floor(random() * 20000)];
  const audit: [number, number] = [1 + Math.floor(random() * candidate[0]), 1 + Math.floor(random() * candidate[1])];
  const gap = [0.028, 0.044, 0.009, 0.164, random(), 0.05][Math.floor(random() * 6)];
  const tolerance = [0.014, 0.022, 0.0045, 0.04, random() * 0.3, 0.05][Math.floor(random() * 6)];
  const failure = [0.2, 0.05, 0.5, 0.01, 1e-6, 0.5 * random() + 1e-9][Math.floor(random() * 6)];
  return { candidate, audit, gap, tolerance, failure };
}

describe('multi-group bounds at K = 2', () => {
  it(
    'equal the two-group functions bit for bit on 5,000 random settings (Prop. 1, Thm 1, 3 and 4, the ' + 'margins)',
    () => {
      const random = createRandom('multi-group-bounds-k2');
      for (let trial = 0; trial < 5000; trial++) {
        const { candidate, audit, gap, tolerance, failure } = twoGroupSetting(random);
        const sizes = { auditGroupSizes: audit, candidateGroupSizes: candidate };
        const auditMinority = Math.min(...audit);
        const candidateMinority = Math.min(...candidate);
        const where = JSON.stringify({ candidate, audit, gap, tolerance, failure });
        expect(multiGroupHoeffdingMargin(failure, 2, auditMinority, difference), where).toBe(
          hoeffdingMargin(failure, auditMinority),
        );
        expect(multiGroupFinitePopulationMargin(failure, sizes, difference), where).toBe(
          finitePopulationMargin(failure, sizes),
        );
        expect(multiGroupVanillaFlipBound(gap, tolerance, audit), where).toBe(
          vanillaFlipBound(gap, tolerance, auditMinority),
        );
        expect(multiGroupRespirFlipBound(gap, tolerance, failure, sizes), where).toEqual(
          respirFlipBound(gap, tolerance, failure, auditMinority, candidateMinority),
        );
        // Theorem 3 is Theorem 1 on the label = 1 strata: the same call with those sizes.
        expect(multiGroupRespirFlipBound(gap, tolerance, failure, sizes), where).toEqual(
          equalOpportunityFlipBound(gap, tolerance, failure, auditMinority, candidateMinority),
        );
        expect(multiGroupFinitePopulationFlipBound(gap, tolerance, failure, sizes), where).toEqual(
          finitePopulationFlipBound(gap, tolerance, failure, sizes),
        );
      }
    },
  );

  it('reproduces the CCD gender numbers of docs/respir.md (vanilla 38, respir 150 best effort)', () => {
    // paper B Table 2, CCD gender: N_min 5,350, n_min 2,675, |d_C| 0.028, ε = 0.014, 1 − δ = 0.8.
    expect(multiGroupVanillaFlipBound(0.028, 0.014, [2675, 4075])).toBe(38);
    const respir = multiGroupRespirFlipBound(0.028, 0.014, 0.2, {
      auditGroupSizes: [2675, 4075],
      candidateGroupSizes: [5350, 8150],
    });
    expect(respir).toMatchObject({ flips: 150, bestEffort: true });
  });
});

describe('multiGroupHoeffdingMargin(δ, K, n_min, form) and multiGroupFinitePopulationMargin(δ, sizes, form)', () => {
  it('is sqrt(2 ln(2K/δ)/n_min) for the max-gap and (1 + ρ)·sqrt(ln(2K/δ)/(2 n_min)) for the ratio', () => {
    // The union bound over K groups: 2K tails of exp(−2 n t²) at t = γ/2.
    expect(multiGroupHoeffdingMargin(0.2, 5, 100, difference)).toBeCloseTo(Math.sqrt((2 * Math.log(50)) / 100), 15);
    expect(multiGroupHoeffdingMargin(0.2, 5, 100, { kind: 'ratio', ratio: 0.8 })).toBeCloseTo(
      1.8 * Math.sqrt(Math.log(50) / 200),
      15,
    );
  });
  it('grows with K, and the finite-population margin never exceeds Hoeffding at the same K', () => {
    const random = createRandom('multi-group-margins');
    for (let trial = 0; trial < 2000; trial++) {
      const groupCount = 2 + Math.floor(random() * 9);
      const candidate = Array.from({ length: groupCount }, () => 1 + Math.floor(random() * 5000));
      const audit = candidate.map((size) => 1 + Math.floor(random() * size));
      const failure = 1e-6 + 0.5 * random();
      const ratio = 0.1 + 0.9 * random();
      const sizes = { auditGroupSizes: audit, candidateGroupSizes: candidate };
      const nMin = Math.min(...audit);
      for (const form of [difference, { kind: 'ratio', ratio } as const]) {
        const hoeffding = multiGroupHoeffdingMargin(failure, groupCount, nMin, form);
        expect(multiGroupFinitePopulationMargin(failure, sizes, form)).toBeLessThanOrEqual(hoeffding * (1 + 1e-12));
        expect(multiGroupHoeffdingMargin(failure, groupCount + 1, nMin, form)).toBeGreaterThan(hoeffding);
      }
    }
  });
  it('sums the two largest deviations t_g (the ratio form weights the second by ρ)', () => {
    const sizes = { auditGroupSizes: [400, 100, 25], candidateGroupSizes: [4000, 1000, 250] };
    const log = Math.log(6 / 0.1);
    const t = (n: number, big: number) => Math.sqrt(((1 - (n - 1) / big) * log) / (2 * n));
    expect(multiGroupFinitePopulationMargin(0.1, sizes, difference)).toBeCloseTo(t(25, 250) + t(100, 1000), 15);
    expect(multiGroupFinitePopulationMargin(0.1, sizes, { kind: 'ratio', ratio: 0.5 })).toBeCloseTo(
      t(25, 250) + 0.5 * t(100, 1000),
      15,
    );
  });
});

describe('multiGroupRatioFlipBound(min, max, ρ, δ, sizes, margin)', () => {
  const sizes = { auditGroupSizes: [300, 150, 50], candidateGroupSizes: [3000, 1500, 500] };
  it('is ⌈(γ − (min − ρ·max))·N_min⌉, 0 when the ratio already holds, best effort past 1 − ρ', () => {
    const gamma = 1.8 * Math.sqrt(Math.log(6 / 0.2) / 100); // K = 3, n_min = 50
    const result = multiGroupRatioFlipBound(0.3, 0.5, 0.8, 0.2, sizes, 'hoeffding');
    expect(result.margin).toBeCloseTo(gamma, 15);
    expect(result.bestEffort).toBe(true); // γ ≈ 0.33 > 1 − ρ = 0.2: no outputs reach the condition
    expect(result.flips).toBe(Math.ceil((0.2 + 0.1) * 500 - 1e-9));
    expect(multiGroupRatioFlipBound(0.45, 0.5, 0.8, 0.2, sizes, 'finite-population').flips).toBe(0);
    const loose = multiGroupRatioFlipBound(
      0.2,
      0.5,
      0.5,
      0.2,
      {
        auditGroupSizes: [30000, 15000, 5000],
        candidateGroupSizes: [300000, 150000, 50000],
      },
      'finite-population',
    );
    expect(loose.bestEffort).toBe(false);
    expect(loose.flips).toBe(Math.ceil((loose.margin + 0.05) * 50000 - 1e-9)); // slack 0.2 − 0.25
  });
  it('vanilla: ⌈(ρ·max − min)·n_min⌉ flips on S', () => {
    expect(multiGroupRatioVanillaFlipBound(0.3, 0.5, 0.8, [300, 150, 50])).toBe(5);
    expect(multiGroupRatioVanillaFlipBound(0.4, 0.5, 0.8, [300, 150, 50])).toBe(0); // exactly the four-fifths
  });
});

describe('multiGroupManipulationBounds(setting)', () => {
  it('at K = 2 gives manipulationBounds counts (Prop. 1, Thm 1, Thm 4) on 300 random settings', () => {
    const random = createRandom('multi-group-manipulation-bounds-k2');
    for (let trial = 0; trial < 300; trial++) {
      const candidateMinority = 20 + Math.floor(random() * 2000);
      const candidateSize = 2 * candidateMinority + Math.floor(random() * 4000);
      const auditMinority = 1 + Math.floor(random() * candidateMinority);
      const auditSize = Math.min(candidateSize, 2 * auditMinority + Math.floor(random() * 2000));
      const majority = candidateSize - candidateMinority;
      const positives = [Math.floor(random() * (candidateMinority + 1)), Math.floor(random() * (majority + 1))];
      const gap = Math.abs(positives[1] / majority - positives[0] / candidateMinority);
      const tolerance = random() * 0.2;
      const passProbability = 0.5 + 0.49 * random();
      if (auditSize - auditMinority > majority) continue;
      const two = manipulationBounds({
        candidateSetSize: candidateSize,
        auditSetSize: auditSize,
        candidateMinoritySize: candidateMinority,
        auditMinoritySize: auditMinority,
        gap,
        tolerance,
        passProbability,
        canaryEffectiveness: 0.8,
        canaryCounts: [5],
      });
      const many = multiGroupManipulationBounds({
        candidateCounts: { sizes: [candidateMinority, majority], positives },
        auditGroupSizes: [auditMinority, auditSize - auditMinority],
        form: difference,
        tolerance,
        passProbability,
      });
      expect(many.vanilla.flips).toBe(two.vanilla.flips);
      expect(many.theorem1.flips).toBe(two.respir.flips);
      expect(many.theorem1.bestEffort).toBe(two.respir.bestEffort);
      expect(many.theorem1.margin).toBe(two.details.margin);
      expect(many.theorem4.flips).toBe(two.details.finitePopulation.flips);
      expect(many.theorem4.margin).toBe(two.details.finitePopulation.margin);
      const exactVanilla = exactVanillaFlips(
        {
          sizes: [auditMinority, auditSize - auditMinority],
          positives: [
            Math.round((auditMinority * positives[0]) / candidateMinority),
            Math.round(((auditSize - auditMinority) * positives[1]) / majority),
          ],
        },
        tolerance,
      );
      expect(many.vanilla.exactFlips).toBe(exactVanilla?.flips);
      if (many.theorem4.exactFlips !== null) {
        // the exact cost of Theorem 4's condition is at least its Lipschitz count, and the window reaches it
        expect(many.theorem4.exactFlips).toBeGreaterThanOrEqual(many.theorem4.flips);
      }
    }
  });
  it('names the bad entry: a group with more audit rows than candidates, one group, 1 − δ below ½', () => {
    const base = {
      candidateCounts: { sizes: [100, 50, 20], positives: [30, 20, 2] },
      auditGroupSizes: [10, 5, 2],
      form: difference,
      tolerance: 0.05,
      passProbability: 0.8,
    };
    expect(() => multiGroupManipulationBounds({ ...base, auditGroupSizes: [10, 5, 21] })).toThrow(
      /audit size of group 2/,
    );
    expect(() =>
      multiGroupManipulationBounds({ ...base, candidateCounts: { sizes: [5], positives: [1] }, auditGroupSizes: [1] }),
    ).toThrow(/at least 2 groups/);
    expect(() => multiGroupManipulationBounds({ ...base, passProbability: 0.3 })).toThrow(InputError);
    expect(multiGroupManipulationBounds(base).groupCount).toBe(3);
  });
});

import { describe, expect, it } from 'vitest';
import { type AuditDesign, groupAuditSizes } from '../../src/audit/audit-design.js';
import type { CandidatePopulation } from '../../src/respir/candidate-population.js';
import { type ExactMinimalFlipsSetting, exactMinimalFlips } from '../../src/respir/exact-minimal-flips.js';
import { createPassProbabilityEvaluator } from '../../src/respir/exact-pass-probability.js';
import { hypergeometricKernel } from '../../src/respir/hypergeometric.js';
import { logFactorialTable } from '../../src/respir/log-factorial-table.js';
import { countGapExceedsTolerance } from '../../src/stats/count-gap-comparison.js';
import { InputError } from '../../src/util/errors.js';
import { createRandom, type Random } from '../../src/util/random.js';

/**
 * The minimum by exhaustion: the pass probability at every (P0', P1') of the grid (the
 * evaluator, itself checked against enumeration of every S in exact-pass-probability.test.ts),
 * and the smallest ℓ1 distance from (P0, P1) among the points that pass (lower end ≥ 1 − δ).
 */
function exhaustiveMinimum(setting: ExactMinimalFlipsSetting) {
  const { population } = setting;
  const evaluator = createPassProbabilityEvaluator(setting);
  const [p0, p1] = population.eligiblePositives;
  let best = Number.POSITIVE_INFINITY;
  let nearestStraddling = Number.POSITIVE_INFINITY;
  for (let u = 0; u <= population.eligibleSizes[0]; u++) {
    for (let v = 0; v <= population.eligibleSizes[1]; v++) {
      const pass = evaluator.outcomes(u, v).pass;
      const distance = Math.abs(u - p0) + Math.abs(v - p1);
      if (pass.lower >= setting.passProbability) best = Math.min(best, distance);
      else if (pass.upper >= setting.passProbability) nearestStraddling = Math.min(nearestStraddling, distance);
    }
  }
  return { best, nearestStraddling, evaluator };
}

/** paritySetting(sizes, positives, n, design, ε, 1 − δ): demographic parity on all rows of a C of these counts. */
function paritySetting(
  sizes: [number, number],
  positives: [number, number],
  auditSetSize: number,
  design: AuditDesign,
  tolerance: number,
  passProbability: number,
): ExactMinimalFlipsSetting {
  return {
    population: { groupSizes: sizes, eligibleSizes: sizes, eligiblePositives: positives },
    auditSetSize,
    design,
    tolerance,
    passProbability,
  };
}

function randomSetting(random: Random, maxSize: number): ExactMinimalFlipsSetting {
  const size0 = 1 + Math.floor(random() * maxSize);
  const size1 = 1 + Math.floor(random() * maxSize);
  const equalOpportunity = random() < 0.25;
  const eligible0 = equalOpportunity ? 1 + Math.floor(random() * size0) : size0;
  const eligible1 = equalOpportunity ? 1 + Math.floor(random() * size1) : size1;
  const population: CandidatePopulation = {
    groupSizes: [size0, size1],
    eligibleSizes: [eligible0, eligible1],
    eligiblePositives: [Math.floor(random() * (eligible0 + 1)), Math.floor(random() * (eligible1 + 1))],
  };
  return {
    population,
    auditSetSize: 2 + Math.floor(random() * (size0 + size1 - 1)),
    design: (['uniform', 'proportional', 'balanced'] as const)[Math.floor(random() * 3)],
    tolerance: [0, 0.02, 0.05, 0.1, 0.2, 0.3][Math.floor(random() * 6)],
    passProbability: [0.5, 0.6, 0.8, 0.9, 0.95, 0.99][Math.floor(random() * 6)],
  };
}

describe('exactMinimalFlips(setting)', () => {
  it('equals the exhaustive minimum over every (P0′, P1′) on small candidate sets', () => {
    const random = createRandom('exact-minimal-flips-exhaustive');
    let nonzero = 0;
    for (let trial = 0; trial < 300; trial++) {
      const setting = randomSetting(random, trial < 150 ? 8 : 40);
      const result = exactMinimalFlips(setting, { maxEvaluations: 100_000 });
      const { best, nearestStraddling } = exhaustiveMinimum(setting);
      const label = JSON.stringify(setting);
      if (result.withinTolerance) {
        const [e0, e1] = setting.population.eligibleSizes;
        const [p0, p1] = setting.population.eligiblePositives;
        expect(countGapExceedsTolerance(e0, p0, e1, p1, setting.tolerance), label).toBe(false);
        expect(result.flips, label).toBe(0);
        continue;
      }
      if (best === Number.POSITIVE_INFINITY) {
        expect(result.reachable, label).toBe(false);
        continue;
      }
      expect(result.reachable, label).toBe(true);
      if (nearestStraddling < best) {
        // An enclosure straddles 1 − δ nearer than the minimum: only a bracket is certified.
        expect(result.lowerBound as number, label).toBeLessThanOrEqual(best);
        expect(result.upperBound as number, label).toBeGreaterThanOrEqual(best);
        continue;
      }
      expect(result.exact, label).toBe(true);
      expect(result.flips, label).toBe(best);
      const [u, v] = result.positives;
      expect(
        Math.abs(u - setting.population.eligiblePositives[0]) + Math.abs(v - setting.population.eligiblePositives[1]),
      ).toBe(best);
      expect(result.passProbability.lower).toBeGreaterThanOrEqual(setting.passProbability);
      if (best > 0) nonzero++;
    }
    expect(nonzero).toBeGreaterThan(60);
  });

  it(
    'equals the exhaustive minimum where sampling noise binds: rates pushed toward 0 beat balancing the ' + 'groups',
    () => {
      // ε = 0.01 against |d_S| noise of about 0.04: no balanced C passes with 0.9; the
      // adversary must thin out the positives of both groups.
      const setting: ExactMinimalFlipsSetting = paritySetting([120, 80], [30, 28], 100, 'uniform', 0.01, 0.9);
      const result = exactMinimalFlips(setting);
      const { best } = exhaustiveMinimum(setting);
      expect(result.exact).toBe(true);
      expect(result.flips).toBe(best);
      expect(result.changes[0]).toBeLessThan(0);
      expect(result.changes[1]).toBeLessThan(0);
    },
  );

  it('needs 0 flips when |d_C| ≤ ε, even if the honest pass probability is below 1 − δ', () => {
    // d_C = 30/100 − 29/100 = 0.01 ≤ ε = 0.01 (compared exactly on counts).
    const result = exactMinimalFlips(paritySetting([100, 100], [29, 30], 50, 'uniform', 0.01, 0.95));
    expect(result).toMatchObject({ flips: 0, exact: true, withinTolerance: true, changes: [0, 0] });
    expect(result.honestPassProbability.value).toBeLessThan(0.95);
  });

  it('needs 0 flips when ε ≥ 1 (every audit set with both groups passes)', () => {
    const result = exactMinimalFlips(paritySetting([50, 50], [0, 50], 20, 'proportional', 1, 0.9));
    expect(result).toMatchObject({ flips: 0, withinTolerance: true });
  });

  it('is unreachable when a group is too often absent from S', () => {
    // One row of group 1 among 40, n = 4: P(group 1 in S) = 4/40 = 0.1 < 0.8 whatever the outputs.
    const result = exactMinimalFlips(paritySetting([39, 1], [0, 1], 4, 'uniform', 0.1, 0.8));
    expect(result).toMatchObject({ reachable: false, flips: null, lowerBound: null, upperBound: null });
    expect(result.maximumPassProbability?.value).toBeCloseTo(0.1, 12);
  });

  it('throws InputError naming the setting for an empty group, n > N and 1 − δ outside (0, 1)', () => {
    const base: ExactMinimalFlipsSetting = paritySetting([10, 10], [2, 8], 10, 'uniform', 0.1, 0.8);
    expect(() =>
      exactMinimalFlips({
        ...base,
        population: { groupSizes: [10, 0], eligibleSizes: [10, 0], eligiblePositives: [2, 0] },
      }),
    ).toThrow(/exactMinimalFlips: population: group 1 size: expected a positive integer, found 0/);
    expect(() => exactMinimalFlips({ ...base, auditSetSize: 21 })).toThrow(
      /auditSetSize: expected an integer from 2 to the candidate set size 20/,
    );
    expect(() => exactMinimalFlips({ ...base, passProbability: 1 })).toThrow(InputError);
    expect(() => exactMinimalFlips({ ...base, tolerance: -0.1 })).toThrow(/tolerance: expected a finite tolerance ≥ 0/);
  });

  it('reports a certified bracket when the evaluation budget runs out', () => {
    const setting: ExactMinimalFlipsSetting = paritySetting([120, 80], [30, 28], 100, 'uniform', 0.01, 0.9);
    const exact = exactMinimalFlips(setting).flips as number;
    const result = exactMinimalFlips(setting, { maxEvaluations: 30 });
    expect(result.exact).toBe(false);
    expect(result.flips).toBeNull();
    expect(result.lowerBound as number).toBeLessThanOrEqual(exact);
    expect(result.upperBound as number).toBeGreaterThanOrEqual(exact);
  });
});

/** One simulated audit, compared as the audit does; S drawn independently of the exact code. */
function simulatedPassRate(
  population: CandidatePopulation,
  positives: readonly [number, number],
  auditSetSize: number,
  design: AuditDesign,
  tolerance: number,
  draws: number,
  random: Random,
): number {
  const [size0, size1] = population.groupSizes;
  const logFactorials = logFactorialTable(size0 + size1);
  const perGroup = groupAuditSizes(design, population.groupSizes, auditSetSize);
  let passes = 0;
  for (let d = 0; d < draws; d++) {
    const drawn0 =
      perGroup === null ? hypergeometricKernel(random, logFactorials, size0 + size1, size0, auditSetSize) : perGroup[0];
    const drawn1 = auditSetSize - drawn0;
    const x0 = hypergeometricKernel(random, logFactorials, size0, positives[0], drawn0);
    const x1 = hypergeometricKernel(random, logFactorials, size1, positives[1], drawn1);
    if (drawn0 > 0 && drawn1 > 0 && !countGapExceedsTolerance(drawn0, x0, drawn1, x1, tolerance)) passes++;
  }
  return passes / draws;
}

/** Wilson score interval at z (two-sided). */
function wilson(rate: number, draws: number, z: number): [number, number] {
  const denominator = 1 + (z * z) / draws;
  const centre = (rate + (z * z) / (2 * draws)) / denominator;
  const half = (z * Math.sqrt((rate * (1 - rate)) / draws + (z * z) / (4 * draws * draws))) / denominator;
  return [centre - half, centre + half];
}

describe('exactMinimalFlips on paper B Table 2 sizes, against Monte Carlo pass rates', () => {
  // Sizes and gaps: paper B Table 2 (N, n, N_min, |d_C,true|), ε = |d|/2, 1 − δ = 0.8
  // (§5). The rates are inputs of this test (the smaller group's decision-1 rate; the
  // larger group's is that minus the gap): roughly those of our own models' candidate sets.
  const rows = [
    { name: 'CCD gender', size: 13_500, minority: 5350, audit: 6750, gap: 0.028, rate: 0.137 },
    { name: 'COMPAS race', size: 2778, minority: 947, audit: 1389, gap: -0.164, rate: 0.287 },
    { name: 'COMPAS gender', size: 2778, minority: 529, audit: 1389, gap: -0.148, rate: 0.28 },
  ];
  for (const row of rows) {
    it(
      `${row.name}: passes with probability ≥ 0.8 at the minimum and < 0.8 with the strongest manipulation one ` +
        `flip below`,
      () => {
        const majority = row.size - row.minority;
        const positives: [number, number] = [
          Math.round((row.rate - row.gap) * majority),
          Math.round(row.rate * row.minority),
        ];
        const population: CandidatePopulation = {
          groupSizes: [majority, row.minority],
          eligibleSizes: [majority, row.minority],
          eligiblePositives: positives,
        };
        const tolerance = Math.abs(positives[1] / row.minority - positives[0] / majority) / 2;
        const setting: ExactMinimalFlipsSetting = {
          population,
          auditSetSize: row.audit,
          design: 'uniform',
          tolerance,
          passProbability: 0.8,
        };
        const result = exactMinimalFlips(setting);
        expect(result.exact).toBe(true);
        const flips = result.flips as number;
        // The strongest manipulation with one flip fewer: the best point of the ring at
        // distance flips − 1 (every point, exact pass probability).
        const evaluator = createPassProbabilityEvaluator(setting);
        let below = { u: 0, v: 0, value: -1 };
        for (let a = -(flips - 1); a <= flips - 1; a++) {
          for (const sign of [1, -1]) {
            const b = sign * (flips - 1 - Math.abs(a));
            const u = positives[0] + a;
            const v = positives[1] + b;
            if (u < 0 || v < 0 || u > majority || v > row.minority) continue;
            const value = evaluator.outcomes(u, v).pass.value;
            if (value > below.value) below = { u, v, value };
          }
        }
        expect(below.value).toBeLessThan(0.8);
        expect(result.passProbability.value).toBeGreaterThanOrEqual(0.8);
        const random = createRandom(`exact-minimal-flips-monte-carlo-${row.name}`);
        const draws = 40_000;
        const atMinimum = simulatedPassRate(
          population,
          result.positives,
          row.audit,
          'uniform',
          tolerance,
          draws,
          random,
        );
        const oneBelow = simulatedPassRate(
          population,
          [below.u, below.v],
          row.audit,
          'uniform',
          tolerance,
          draws,
          random,
        );
        // 99.9% Wilson intervals (z = 3.29) of the simulated pass rates hold the exact values,
        // which straddle 1 − δ: simulation and exact calculation agree on the minimum.
        const [lowAt, highAt] = wilson(atMinimum, draws, 3.29);
        const [lowBelow, highBelow] = wilson(oneBelow, draws, 3.29);
        expect(result.passProbability.value).toBeGreaterThanOrEqual(lowAt);
        expect(result.passProbability.value).toBeLessThanOrEqual(highAt);
        expect(below.value).toBeGreaterThanOrEqual(lowBelow);
        expect(below.value).toBeLessThanOrEqual(highBelow);
        // And the simulation alone: the minimum is not significantly below 1 − δ,
        // one flip fewer not significantly above.
        expect(highAt).toBeGreaterThanOrEqual(0.8);
        expect(lowBelow).toBeLessThan(0.8);
      },
    );
  }
});

import { describe, expect, it } from 'vitest';
import { bestEffortManipulation } from '../../src/respir/adversary.js';
import { syntheticCandidatePopulation } from '../../src/respir/candidate-population.js';
import { hoeffdingMargin } from '../../src/respir/concentration-margin.js';
import { detectionProbability } from '../../src/respir/detection-probability.js';
import { exactMinimalFlips } from '../../src/respir/exact-minimal-flips.js';
import { createPassProbabilityEvaluator } from '../../src/respir/exact-pass-probability.js';
import { hypergeometricProbability } from '../../src/respir/hypergeometric.js';
import { logFactorialTable } from '../../src/respir/log-factorial-table.js';
import { minimalPassingFlips } from '../../src/respir/minimal-passing-flips.js';
import {
  canariesDetect,
  drawObliviousAudit,
  type ObliviousAuditSetup,
  passRate,
  prepareObliviousAudit,
} from '../../src/respir/oblivious-audit-simulation.js';
import { respirFlipBound } from '../../src/respir/respir-flip-bound.js';
import { eligibleCounts, planRespirManipulation } from '../../src/respir/respir-manipulation-plan.js';
import { strongestManipulation } from '../../src/respir/strongest-manipulation.js';
import { vanillaFlipBound } from '../../src/respir/vanilla-flip-bound.js';
import { createRandom } from '../../src/util/random.js';

function setupFor(
  share: number,
  rates: [number, number],
  tolerance: number,
  design: ObliviousAuditSetup['design'],
  plan: 'theorem-1' | 'theorem-4',
  metric: 'sp' | 'eo' = 'sp',
) {
  const population = syntheticCandidatePopulation(
    { size: 2000, minorityShare: share, positiveRates: rates },
    metric,
    'test',
  );
  const planned = planRespirManipulation(population, plan, tolerance, 0.95, 400, design);
  const setup: ObliviousAuditSetup = {
    population,
    auditSetSize: 400,
    design,
    sampler: 'counts',
    tolerance,
    canaries: 5,
    canaryEffectiveness: 0.8,
    manipulation: planned.manipulation,
  };
  return { setup, planned, population };
}

describe('passRate(prepareObliviousAudit(setup), draws, random)', () => {
  // The bound's condition: the adversary brought |d_C| to ε − γ ≥ 0 (Theorems 2 and 4);
  // the pass rate must then be at least 1 − δ = 0.95 (here it is essentially 1, since Hoeffding is loose).
  const cases = [
    {
      share: 0.5,
      rates: [0.3, 0.7] as [number, number],
      tolerance: 0.25,
      design: 'balanced' as const,
      plan: 'theorem-1' as const,
    },
    {
      share: 0.5,
      rates: [0.3, 0.7] as [number, number],
      tolerance: 0.25,
      design: 'uniform' as const,
      plan: 'theorem-1' as const,
    },
    {
      share: 0.5,
      rates: [0.2, 0.6] as [number, number],
      tolerance: 0.22,
      design: 'uniform' as const,
      plan: 'theorem-4' as const,
    },
    {
      share: 0.3,
      rates: [0.25, 0.75] as [number, number],
      tolerance: 0.3,
      design: 'proportional' as const,
      plan: 'theorem-1' as const,
    },
    {
      share: 0.3,
      rates: [0.25, 0.75] as [number, number],
      tolerance: 0.26,
      design: 'proportional' as const,
      plan: 'theorem-4' as const,
    },
  ];
  for (const c of cases) {
    it(
      `never falls below 1 − δ when the bound's condition holds (${c.plan}, ${c.design}, minority ${c.share}, ε ` +
        `= ${c.tolerance})`,
      () => {
        const { setup, planned } = setupFor(c.share, c.rates, c.tolerance, c.design, c.plan);
        expect(planned.bestEffort).toBe(false);
        expect(planned.targetGap).toBeGreaterThanOrEqual(0);
        expect(Math.abs(planned.manipulation.gap)).toBeLessThanOrEqual(planned.targetGap + 1e-12);
        const rate = passRate(
          prepareObliviousAudit(setup),
          4000,
          createRandom(`pass-${c.plan}-${c.design}-${c.share}`),
        );
        expect(rate).toBeGreaterThanOrEqual(0.95);
      },
    );
  }
  it('is near 0 with no manipulation when the gap is far above ε', () => {
    const { setup } = setupFor(0.5, [0.3, 0.7], 0.25, 'uniform', 'theorem-1');
    const untouched = { ...setup, manipulation: { groupOneLowered: 0, groupZeroRaised: 0, flips: 0, gap: 0.4 } };
    expect(passRate(prepareObliviousAudit(untouched), 2000, createRandom('no-flips'))).toBeLessThan(0.01);
  });
  it('gives the same rate with the counts and the indices samplers (same law, different streams)', () => {
    const { setup } = setupFor(0.3, [0.25, 0.75], 0.3, 'uniform', 'theorem-1');
    const fewer = {
      ...setup,
      manipulation: planRespirManipulation(setup.population, 120, 0.3, 0.95, 400, 'uniform').manipulation,
    };
    const byCounts = passRate(prepareObliviousAudit(fewer), 6000, createRandom('a'));
    const byIndices = passRate(prepareObliviousAudit({ ...fewer, sampler: 'indices' }), 6000, createRandom('b'));
    expect(byCounts).toBeGreaterThan(0.05);
    expect(byCounts).toBeLessThan(0.95);
    expect(Math.abs(byCounts - byIndices)).toBeLessThan(4 * Math.sqrt((2 * 0.25) / 6000));
  });
});

describe('canariesDetect(random, logFactorials, n, modified, k, q)', () => {
  it('detects with frequency 1 − Σ_j P(j flipped canaries)(1 − q)^j, close to Eq. 3 for k ≪ n', () => {
    const table = logFactorialTable(400);
    const random = createRandom('canaries');
    const draws = 100_000;
    let detected = 0;
    for (let i = 0; i < draws; i++) if (canariesDetect(random, table, 400, 40, 5, 0.8)) detected++;
    let missed = 0;
    for (let j = 0; j <= 5; j++) missed += hypergeometricProbability(table, 400, 40, 5, j) * 0.2 ** j;
    const exact = 1 - missed;
    expect(Math.abs(detected / draws - exact)).toBeLessThan(4 * Math.sqrt((exact * (1 - exact)) / draws));
    expect(Math.abs(exact - detectionProbability(40, 400, 0.8, 5))).toBeLessThan(0.005); // Eq. 3: 0.3409
  });
  it('never detects without flips, canaries or effectiveness', () => {
    const table = logFactorialTable(10);
    const random = createRandom(3);
    expect(canariesDetect(random, table, 10, 0, 5, 1)).toBe(false);
    expect(canariesDetect(random, table, 10, 5, 0, 1)).toBe(false);
    expect(canariesDetect(random, table, 10, 5, 5, 0)).toBe(false);
  });
});

describe('drawObliviousAudit(simulation, random)', () => {
  it('gives vanilla flips at least Proposition 1 with the realized n_min, and passes the vanilla audit', () => {
    const { setup } = setupFor(0.2, [0.3, 0.45], 0.05, 'uniform', 'theorem-1');
    const simulation = prepareObliviousAudit(setup);
    const random = createRandom('vanilla');
    for (let i = 0; i < 500; i++) {
      const outcome = drawObliviousAudit(simulation, random);
      expect(outcome.vanillaFlips).toBeGreaterThanOrEqual(
        vanillaFlipBound(outcome.trueGap, 0.05, outcome.auditMinority),
      );
      expect(outcome.vanillaFlips).toBeLessThanOrEqual(
        vanillaFlipBound(outcome.trueGap, 0.05, outcome.auditMinority) + 1,
      );
    }
  });
  it('is reproducible: the same seed gives the same outcomes', () => {
    const { setup } = setupFor(0.2, [0.3, 0.45], 0.05, 'uniform', 'theorem-1');
    const run = () => {
      const simulation = prepareObliviousAudit(setup);
      const random = createRandom('same');
      return Array.from({ length: 50 }, () => drawObliviousAudit(simulation, random));
    };
    expect(run()).toEqual(run());
  });
  it('detects respir flips at Eq. 3 over N on average (canaries among S, S uniform in C)', () => {
    const { setup } = setupFor(0.5, [0.3, 0.7], 0.25, 'uniform', 'theorem-1');
    const simulation = prepareObliviousAudit({ ...setup, canaries: 20 });
    const random = createRandom('respir-canaries');
    const draws = 40_000;
    let detected = 0;
    for (let i = 0; i < draws; i++) if (drawObliviousAudit(simulation, random, false).respirDetected) detected++;
    const eq3 = detectionProbability(setup.manipulation.flips, 2000, 0.8, 20);
    expect(Math.abs(detected / draws - eq3)).toBeLessThan(4 * Math.sqrt((eq3 * (1 - eq3)) / draws) + 0.01);
  });
});

describe('minimalPassingFlips(setup, passProbability, drawsPerStep, seed)', () => {
  it('finds a count no larger than Theorem 1 asks, whose rate reaches 1 − δ while one flip fewer does not', () => {
    const { setup, population } = setupFor(0.5, [0.3, 0.7], 0.25, 'balanced', 'theorem-1');
    const result = minimalPassingFlips(setup, 0.95, 2000, 'bisection');
    const gap = population.eligiblePositives[1] / 1000 - population.eligiblePositives[0] / 1000;
    const theorem1 = respirFlipBound(gap, 0.25, 0.05, 200, 1000);
    expect(theorem1.bestEffort).toBe(false);
    expect(result.flips).toBeGreaterThan(0);
    expect(result.flips).toBeLessThanOrEqual(theorem1.flips);
    expect(result.passRate).toBeGreaterThanOrEqual(0.95);
    // the margin Theorem 1 spends (γ·N_min = 209 flips here) is mostly unneeded in practice
    expect(theorem1.flips - result.flips).toBeGreaterThan(hoeffdingMargin(0.05, 200) * 1000 * 0.3);
    const evaluator = createPassProbabilityEvaluator({
      population,
      auditSetSize: 400,
      design: 'balanced',
      tolerance: 0.25,
    });
    const counts = eligibleCounts(population).positives;
    const oneFewer = strongestManipulation(evaluator, [counts[0], counts[1]], result.flips - 1);
    const rateBelow = passRate(
      prepareObliviousAudit({ ...setup, manipulation: oneFewer }),
      2000,
      createRandom('bisection'),
    );
    expect(rateBelow).toBeLessThan(0.95);
    expect(minimalPassingFlips(setup, 0.95, 2000, 'bisection')).toEqual(result);
  });
  it('reports −1 when no manipulation can pass often enough (a group too often absent from S)', () => {
    // One row of group 1 among 40 and n = 4: P(group 1 in S) = 0.1 < 0.95 whatever the outputs.
    const population = syntheticCandidatePopulation(
      { size: 40, minorityShare: 0.025, positiveRates: [0, 1] },
      'sp',
      'test',
    );
    const setup = {
      population,
      auditSetSize: 4,
      design: 'uniform' as const,
      sampler: 'counts' as const,
      tolerance: 0.1,
      canaries: 0,
      canaryEffectiveness: 0,
    };
    expect(minimalPassingFlips(setup, 0.95, 500, 'unreachable').flips).toBe(-1);
  });
  it(
    'agrees with exactMinimalFlips when ε is below the sampling noise and the strongest adversary thins out ' +
      'both groups',
    () => {
      // |C| = 400 (40% in group 1), |S| = 100, rates 0.3 and 0.4, ε = 0.02, 1 − δ = 0.9: balancing
      // the groups passes with about 0.3 only; the exact minimum lowers both groups' positives.
      const population = syntheticCandidatePopulation(
        { size: 400, minorityShare: 0.4, positiveRates: [0.3, 0.4] },
        'sp',
        'test',
      );
      const setup = {
        population,
        auditSetSize: 100,
        design: 'uniform' as const,
        sampler: 'counts' as const,
        tolerance: 0.02,
        canaries: 0,
        canaryEffectiveness: 0,
      };
      const exact = exactMinimalFlips({
        population,
        auditSetSize: 100,
        design: 'uniform',
        tolerance: 0.02,
        passProbability: 0.9,
      });
      expect(exact.exact).toBe(true);
      expect(exact.changes[0]).toBeLessThan(0);
      expect(exact.changes[1]).toBeLessThan(0);
      const simulated = minimalPassingFlips(setup, 0.9, 4000, 'strongest');
      // Each flip moves the pass probability by well under 1%: a 4000-draw estimate may land a few flips off.
      expect(Math.abs(simulated.flips - (exact.flips as number))).toBeLessThanOrEqual(6);
      expect(simulated.flips).toBeGreaterThan(bestEffortManipulation(eligibleCounts(population)).flips);
    },
  );
});

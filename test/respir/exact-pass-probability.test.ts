import { describe, expect, it } from 'vitest';
import { type AuditDesign, groupAuditSizes } from '../../src/audit/audit-design.js';
import type { CandidatePopulation } from '../../src/respir/candidate-population.js';
import { createPassProbabilityEvaluator } from '../../src/respir/exact-pass-probability.js';
import { hypergeometricProbability } from '../../src/respir/hypergeometric.js';
import { hypergeometricWindow } from '../../src/respir/hypergeometric-window.js';
import { logFactorialTable } from '../../src/respir/log-factorial-table.js';
import { countGapExceedsTolerance } from '../../src/stats/count-gap-comparison.js';
import { createRandom } from '../../src/util/random.js';

interface Row {
  group: number;
  metric: boolean;
  positive: boolean;
}

/** C as rows: per group, `eligible` metric rows of which `positives` are 1, then the rows the metric ignores. */
function candidateRows(population: CandidatePopulation, positives: readonly [number, number]): Row[] {
  const rows: Row[] = [];
  for (const group of [0, 1]) {
    for (let i = 0; i < population.groupSizes[group]; i++) {
      rows.push({ group, metric: i < population.eligibleSizes[group], positive: i < positives[group] });
    }
  }
  return rows;
}

function popcount(mask: number): number {
  let count = 0;
  for (let m = mask; m !== 0; m &= m - 1) count++;
  return count;
}

/**
 * Brute force: every audit set S of the design (all C(N, n) subsets for uniform, all
 * subsets with the design's n₀, n₁ for stratified ones), each equally likely; the audit
 * passes when both groups have a metric row in S and countGapExceedsTolerance says no.
 */
function bruteForcePassProbability(
  population: CandidatePopulation,
  positives: readonly [number, number],
  auditSetSize: number,
  design: AuditDesign,
  tolerance: number,
): number {
  const rows = candidateRows(population, positives);
  const perGroup = groupAuditSizes(design, population.groupSizes, auditSetSize);
  let sets = 0;
  let passes = 0;
  for (let mask = 0; mask < 1 << rows.length; mask++) {
    if (popcount(mask) !== auditSetSize) continue;
    const metric = [0, 0];
    const positive = [0, 0];
    const drawn = [0, 0];
    rows.forEach((row, i) => {
      if ((mask & (1 << i)) === 0) return;
      drawn[row.group]++;
      if (!row.metric) return;
      metric[row.group]++;
      if (row.positive) positive[row.group]++;
    });
    if (perGroup !== null && (drawn[0] !== perGroup[0] || drawn[1] !== perGroup[1])) continue;
    sets++;
    if (
      metric[0] > 0 &&
      metric[1] > 0 &&
      !countGapExceedsTolerance(metric[0], positive[0], metric[1], positive[1], tolerance)
    )
      passes++;
  }
  return passes / sets;
}

describe('hypergeometricWindow(population, successes, draws, tailBound)', () => {
  it('matches the pmf and keeps its promise on the dropped mass', () => {
    const logFactorials = logFactorialTable(20_000);
    for (const [population, successes, draws] of [
      [13_500, 5350, 6750],
      [8150, 879, 4075],
      [30, 7, 12],
      [2778, 947, 1389],
      [1000, 3, 500],
    ]) {
      for (const tailBound of [1e-13, 1e-6]) {
        const window = hypergeometricWindow(population, successes, draws, tailBound);
        let kept = 0;
        for (let i = 0; i < window.length; i++) {
          const exact = hypergeometricProbability(logFactorials, population, successes, draws, window.first + i);
          kept += exact;
          // Normalised over the window: too large by a factor ≤ 1 + droppedMass (plus ln-factorial rounding ~1e-9).
          expect(Math.abs(window.probabilities[i] - exact)).toBeLessThanOrEqual(
            exact * (window.droppedMass + 1e-8) + 1e-300,
          );
        }
        expect(1 - kept).toBeLessThanOrEqual(window.droppedMass + 1e-8);
        expect(window.droppedMass).toBeLessThanOrEqual(2 * tailBound);
      }
    }
  });

  it('is the whole support (one value, no dropped mass) when the draw is forced', () => {
    expect(hypergeometricWindow(10, 10, 4, 1e-13)).toMatchObject({ first: 4, length: 1, droppedMass: 0 });
    expect(hypergeometricWindow(10, 0, 4, 1e-13)).toMatchObject({ first: 0, length: 1, droppedMass: 0 });
  });
});

describe('createPassProbabilityEvaluator(setting).outcomes(P0, P1)', () => {
  it(
    'equals brute-force enumeration of every audit set S on tiny candidate sets (uniform and stratified, parity ' +
      'and equal opportunity)',
    () => {
      const random = createRandom('exact-pass-probability-brute-force');
      let checked = 0;
      for (let trial = 0; trial < 40; trial++) {
        const size0 = 1 + Math.floor(random() * 6);
        const size1 = 1 + Math.floor(random() * 6);
        const equalOpportunity = random() < 0.3;
        const eligible0 = equalOpportunity ? 1 + Math.floor(random() * size0) : size0;
        const eligible1 = equalOpportunity ? 1 + Math.floor(random() * size1) : size1;
        const population: CandidatePopulation = {
          groupSizes: [size0, size1],
          eligibleSizes: [eligible0, eligible1],
          eligiblePositives: [0, 0],
        };
        const auditSetSize = 2 + Math.floor(random() * (size0 + size1 - 1));
        if (auditSetSize > size0 + size1) continue;
        const design = (['uniform', 'proportional', 'balanced'] as const)[Math.floor(random() * 3)];
        const tolerance = [0, 0.05, 0.1, 0.2, 0.25, 1 / 3, 0.5, 1][Math.floor(random() * 8)];
        const evaluator = createPassProbabilityEvaluator({ population, auditSetSize, design, tolerance });
        for (let u = 0; u <= eligible0; u++) {
          for (let v = 0; v <= eligible1; v++) {
            const expected = bruteForcePassProbability(population, [u, v], auditSetSize, design, tolerance);
            const got = evaluator.outcomes(u, v).pass;
            expect(
              Math.abs(got.value - expected),
              `${JSON.stringify({ population, auditSetSize, design, tolerance, u, v })}`,
            ).toBeLessThan(1e-12);
            expect(got.lower).toBeLessThanOrEqual(expected + 1e-15);
            expect(got.upper).toBeGreaterThanOrEqual(expected - 1e-15);
            checked++;
          }
        }
      }
      expect(checked).toBeGreaterThan(300);
    },
  );

  it('matches a SciPy full sum at N₀ = 400, N₁ = 150, n = 200, ε = 0.05', () => {
    // SciPy 1.x, full sums without truncation:
    //   from scipy.stats import hypergeom
    //   def pi(u, v): return sum(hypergeom(550, 400, 200).pmf(n0) * sum(
    //       hypergeom(400, u, n0).pmf(x0) * (hypergeom(150, v, 200 - n0).cdf((x0*(200-n0) + D) // n0)
    //       - hypergeom(150, v, 200 - n0).cdf(-((D - x0*(200-n0)) // n0) - 1)) for x0 in range(n0 + 1))
    //       for n0 in range(50, 200) for D in [n0 * (200 - n0) // 20])  # n1 = 0 fails
    //   pi(80, 45) = 0.1855359987362447, pi(80, 30) = 0.6731698925139684.
    const population: CandidatePopulation = {
      groupSizes: [400, 150],
      eligibleSizes: [400, 150],
      eligiblePositives: [80, 45],
    };
    const evaluator = createPassProbabilityEvaluator({
      population,
      auditSetSize: 200,
      design: 'uniform',
      tolerance: 0.05,
    });
    expect(evaluator.outcomes(80, 45).pass.value).toBeCloseTo(0.1855359987362447, 11);
    expect(evaluator.outcomes(80, 30).pass.value).toBeCloseTo(0.6731698925139684, 11);
  });

  it(
    'has P(d_S ≤ ε) rising in P0 and falling in P1, P(d_S ≥ −ε) the reverse, and pass = both − P(both groups in ' +
      'S)',
    () => {
      const population: CandidatePopulation = {
        groupSizes: [300, 120],
        eligibleSizes: [300, 120],
        eligiblePositives: [0, 0],
      };
      const evaluator = createPassProbabilityEvaluator({
        population,
        auditSetSize: 150,
        design: 'uniform',
        tolerance: 0.04,
      });
      const both = evaluator.outcomes(0, 0).pass.value;
      const random = createRandom('exact-pass-probability-monotone');
      for (let trial = 0; trial < 60; trial++) {
        const u = Math.floor(random() * 300);
        const v = Math.floor(random() * 120);
        const here = evaluator.outcomes(u, v);
        const right = evaluator.outcomes(u + 1, v);
        const up = evaluator.outcomes(u, v + 1);
        expect(right.gapAtMostTolerance.value).toBeGreaterThanOrEqual(here.gapAtMostTolerance.value - 1e-12);
        expect(up.gapAtMostTolerance.value).toBeLessThanOrEqual(here.gapAtMostTolerance.value + 1e-12);
        expect(right.gapAtLeastMinusTolerance.value).toBeLessThanOrEqual(here.gapAtLeastMinusTolerance.value + 1e-12);
        expect(up.gapAtLeastMinusTolerance.value).toBeGreaterThanOrEqual(here.gapAtLeastMinusTolerance.value - 1e-12);
        expect(here.pass.value).toBeCloseTo(
          here.gapAtMostTolerance.value + here.gapAtLeastMinusTolerance.value - both,
          10,
        );
      }
    },
  );

  it('is symmetric under complementing every output (the audit sees |d_S|)', () => {
    const population: CandidatePopulation = {
      groupSizes: [250, 90],
      eligibleSizes: [250, 90],
      eligiblePositives: [0, 0],
    };
    const evaluator = createPassProbabilityEvaluator({
      population,
      auditSetSize: 120,
      design: 'proportional',
      tolerance: 0.05,
    });
    for (const [u, v] of [
      [40, 30],
      [125, 40],
      [0, 7],
    ]) {
      expect(evaluator.outcomes(u, v).pass.value).toBeCloseTo(evaluator.outcomes(250 - u, 90 - v).pass.value, 12);
    }
  });
});

import { type AuditDesign, groupAuditSizes } from '../audit/audit-design.js';
import { countGapExceedsTolerance } from '../stats/count-gap-comparison.js';
import {
  bestEffortManipulation,
  bestManipulationKernel,
  fewestFlipsToGapKernel,
  type Manipulation,
} from './adversary.js';
import type { CandidatePopulation } from './candidate-population.js';
import { finitePopulationMargin, hoeffdingMargin } from './concentration-margin.js';
import type { GroupCounts } from './group-counts.js';

/**
 * Which manipulation the provider applies to C under respir:
 * - 'none': no flips;
 * - 'theorem-1' / 'theorem-4': the fewest flips that bring |d_C| to ε − γ (Theorem 2's
 *   sufficient condition) or to ε − γ_FPC (Theorem 4's), with the audit's expected
 *   group counts; best effort (bestEffortManipulation: |d_C| to zero within half the
 *   finest flip step) when that target is below 0; no flips when |d_C| ≤ ε already;
 * - 'best-effort': that best effort directly;
 * - a number m: the m-flip manipulation that brings |d_C| lowest.
 */
export type ManipulationPlan = 'none' | 'theorem-1' | 'theorem-4' | 'best-effort' | number;

/** The plan resolved against a candidate set. */
export interface PlannedManipulation {
  manipulation: Manipulation;
  /** The |d_C| aimed at (NaN for 'none' and flip budgets). */
  targetGap: number;
  /** The concentration margin used (NaN when none is). */
  margin: number;
  bestEffort: boolean;
  /** Expected count of the metric's rows per group in S (what Theorems 1-4 condition on). */
  expectedAuditEligible: [number, number];
}

/** The metric's rows of C as adversary counts (label = 1 strata for EO). */
export function eligibleCounts(population: CandidatePopulation): GroupCounts {
  return { sizes: population.eligibleSizes, positives: population.eligiblePositives };
}

/**
 * expectedAuditEligible(population, auditSetSize, design) is the expected count of the
 * metric's rows of each group in S, rounded and at least 1: n·Eₐ/N for uniform draws,
 * nₐ·Eₐ/Nₐ for stratified designs (Eₐ = Nₐ for SP, N⁺ₐ for EO). O(1).
 */
export function expectedAuditEligible(
  population: CandidatePopulation,
  auditSetSize: number,
  design: AuditDesign,
): [number, number] {
  const total = population.groupSizes[0] + population.groupSizes[1];
  const perGroup = groupAuditSizes(design, population.groupSizes, auditSetSize) ?? [
    (auditSetSize * population.groupSizes[0]) / total,
    (auditSetSize * population.groupSizes[1]) / total,
  ];
  const result: [number, number] = [0, 0];
  for (const g of [0, 1] as const) {
    result[g] = Math.max(1, Math.round((perGroup[g] * population.eligibleSizes[g]) / population.groupSizes[g]));
  }
  return result;
}

/**
 * planRespirManipulation(population, plan, tolerance, passProbability, auditSetSize,
 * design) resolves a ManipulationPlan into flips on C with the adversary
 * (fewestFlipsToGap / bestManipulation). O(min(N₀, N₁)) at worst.
 */
export function planRespirManipulation(
  population: CandidatePopulation,
  plan: ManipulationPlan,
  tolerance: number,
  passProbability: number,
  auditSetSize: number,
  design: AuditDesign,
): PlannedManipulation {
  const counts = eligibleCounts(population);
  const expected = expectedAuditEligible(population, auditSetSize, design);
  const lowest = (): Manipulation => bestEffortManipulation(counts);
  if (plan === 'none' || typeof plan === 'number') {
    return {
      manipulation: bestManipulationKernel(counts, plan === 'none' ? 0 : plan),
      targetGap: Number.NaN,
      margin: Number.NaN,
      bestEffort: false,
      expectedAuditEligible: expected,
    };
  }
  if (plan === 'best-effort') {
    return {
      manipulation: lowest(),
      targetGap: 0,
      margin: Number.NaN,
      bestEffort: true,
      expectedAuditEligible: expected,
    };
  }
  const failure = 1 - passProbability;
  if (
    !countGapExceedsTolerance(counts.sizes[0], counts.positives[0], counts.sizes[1], counts.positives[1], tolerance)
  ) {
    // |d_C| ≤ ε: the theorems assume a model that would fail; a fair provider flips nothing.
    return {
      manipulation: bestManipulationKernel(counts, 0),
      targetGap: Number.NaN,
      margin: Number.NaN,
      bestEffort: false,
      expectedAuditEligible: expected,
    };
  }
  const margin =
    plan === 'theorem-1'
      ? hoeffdingMargin(failure, Math.min(expected[0], expected[1]))
      : finitePopulationMargin(failure, { auditGroupSizes: expected, candidateGroupSizes: population.eligibleSizes });
  const targetGap = tolerance - margin;
  const reached = targetGap >= 0 ? fewestFlipsToGapKernel(counts, targetGap) : null;
  if (reached === null) {
    return { manipulation: lowest(), targetGap: 0, margin, bestEffort: true, expectedAuditEligible: expected };
  }
  return { manipulation: reached, targetGap, margin, bestEffort: false, expectedAuditEligible: expected };
}

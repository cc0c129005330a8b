import type { Manipulation } from './adversary.js';
import type { CandidatePopulation } from './candidate-population.js';

/** Strata per group, in this order; the group's strata are contiguous, group 0 first. */
export const strataPerGroup = 5;

/**
 * The candidate set cut into strata that an audit-set draw only needs to count: per
 * group, the metric's rows that stayed positive, stayed negative, were flipped 0→1,
 * were flipped 1→0, and the rows the metric ignores (label 0 under EO). Typed arrays
 * indexed by stratum.
 */
export interface AuditStrata {
  /** Rows of C in each stratum. */
  counts: Int32Array;
  group: Uint8Array;
  /** 1 when the metric uses the stratum's rows (all for SP, label = 1 for EO). */
  eligible: Uint8Array;
  /** Decision after the manipulation. */
  positive: Uint8Array;
  /** Decision before the manipulation. */
  originallyPositive: Uint8Array;
  /** 1 when the provider flipped the stratum's outputs. */
  flipped: Uint8Array;
}

/**
 * buildAuditStrata(population, manipulation) applies a manipulation (net flips per
 * group on the metric's rows, from the adversary) to a candidate population and cuts
 * it into 2 × 5 strata (strataPerGroup). O(1). Inputs are trusted: the manipulation
 * must fit the population's counts.
 */
export function buildAuditStrata(population: CandidatePopulation, manipulation: Manipulation): AuditStrata {
  const size = 2 * strataPerGroup;
  const strata: AuditStrata = {
    counts: new Int32Array(size),
    group: new Uint8Array(size),
    eligible: new Uint8Array(size),
    positive: new Uint8Array(size),
    originallyPositive: new Uint8Array(size),
    flipped: new Uint8Array(size),
  };
  const lowered = [Math.max(0, -manipulation.groupZeroRaised), Math.max(0, manipulation.groupOneLowered)];
  const raised = [Math.max(0, manipulation.groupZeroRaised), Math.max(0, -manipulation.groupOneLowered)];
  for (const g of [0, 1] as const) {
    const eligible = population.eligibleSizes[g];
    const positives = population.eligiblePositives[g];
    // [count, eligible, positive now, positive before, flipped]
    const rows: Array<[number, number, number, number, number]> = [
      [positives - lowered[g], 1, 1, 1, 0],
      [eligible - positives - raised[g], 1, 0, 0, 0],
      [raised[g], 1, 1, 0, 1],
      [lowered[g], 1, 0, 1, 1],
      [population.groupSizes[g] - eligible, 0, 0, 0, 0],
    ];
    rows.forEach(([count, isEligible, positive, before, flipped], index) => {
      const s = g * strataPerGroup + index;
      strata.counts[s] = count;
      strata.group[s] = g;
      strata.eligible[s] = isEligible;
      strata.positive[s] = positive;
      strata.originallyPositive[s] = before;
      strata.flipped[s] = flipped;
    });
  }
  return strata;
}

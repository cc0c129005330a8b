import { inputError } from '../util/errors.js';

/** The fairness metric audited: demographic parity (all rows) or equal opportunity (label = 1 rows). */
export type AuditMetric = 'sp' | 'eo';

/**
 * A candidate set C as the oblivious-audit simulation needs it: per group, its size,
 * how many rows the metric looks at (all of them for SP, label = 1 for EO: paper B
 * Appendix C) and how many of those have decision 1. Only counts matter: S is a
 * uniform sample, so which rows carry which outputs does not change its law.
 */
export interface CandidatePopulation {
  /** N₀, N₁. */
  groupSizes: readonly [number, number];
  /** Rows the metric uses per group (N⁺ₐ for EO; Nₐ for SP). */
  eligibleSizes: readonly [number, number];
  /** Decision-1 rows among those, per group. */
  eligiblePositives: readonly [number, number];
}

/**
 * candidatePopulationFromColumns(group, label, decision, metric, where) counts a pool's
 * columns (AuditPool's group/label/decision, 0/1 each) into a CandidatePopulation.
 * O(rows). Throws InputError when a group has no row the metric uses.
 * @param group each row's group, 0 or 1
 * @param label each row's label, 0 or 1
 * @param decision each row's decision, 0 or 1
 * @param metric parity (every row) or equal opportunity (rows with label 1)
 * @param where names the source in messages
 * @returns the candidate set's group sizes, metric rows and positives
 * @example
 * const population = candidatePopulationFromColumns(pool.group, pool.label, pool.decision, 'parity', 'outputs.csv');
 */
export function candidatePopulationFromColumns(
  group: ArrayLike<number>,
  label: ArrayLike<number>,
  decision: ArrayLike<number>,
  metric: AuditMetric,
  where: string,
): CandidatePopulation {
  const sizes = [0, 0];
  const eligible = [0, 0];
  const positives = [0, 0];
  for (let i = 0; i < group.length; i++) {
    const g = group[i] === 1 ? 1 : 0;
    sizes[g]++;
    if (metric === 'eo' && label[i] !== 1) continue;
    eligible[g]++;
    if (decision[i] === 1) positives[g]++;
  }
  const population: CandidatePopulation = {
    groupSizes: [sizes[0], sizes[1]],
    eligibleSizes: [eligible[0], eligible[1]],
    eligiblePositives: [positives[0], positives[1]],
  };
  validateCandidatePopulation(population, where);
  return population;
}

/**
 * validateCandidatePopulation(population, where) throws an InputError unless each
 * group has a positive integer size, 1 ≤ eligible ≤ size, and 0 ≤ positives ≤ eligible.
 */
export function validateCandidatePopulation(population: CandidatePopulation, where: string): void {
  for (const g of [0, 1] as const) {
    const size = population.groupSizes[g];
    const eligible = population.eligibleSizes[g];
    const positives = population.eligiblePositives[g];
    if (!Number.isInteger(size) || size < 1)
      throw inputError({ where: `${where}: group ${g} size`, expected: 'a positive integer', found: size });
    if (!Number.isInteger(eligible) || eligible < 1 || eligible > size) {
      throw inputError({
        where: `${where}: group ${g} rows the metric uses`,
        expected: `an integer from 1 to ${size}`,
        found: eligible,
      });
    }
    if (!Number.isInteger(positives) || positives < 0 || positives > eligible) {
      throw inputError({
        where: `${where}: group ${g} decision-1 rows`,
        expected: `an integer from 0 to ${eligible}`,
        found: positives,
      });
    }
  }
}

/** A synthetic candidate set described by its group sizes and rates. */
export interface SyntheticCandidateSpec {
  /** N = |C|. */
  size: number;
  /** Share of C in group 1 (the minority when below 0.5). */
  minorityShare: number;
  /** Decision-1 rate of the metric's rows in group 0 and group 1 (TPRs under EO). */
  positiveRates: readonly [number, number];
  /** Share of label = 1 rows in each group (used by EO only; default 0.5). */
  labelShare?: number;
}

/**
 * syntheticCandidatePopulation(spec, metric) builds a candidate population from sizes
 * and rates: N₁ = round(share·N), N₀ = N − N₁; the metric's rows are all rows (SP) or
 * round(labelShare·Nₐ) (EO); positives round(rateₐ·rows). O(1). Throws InputError
 * when a group ends up empty.
 * @param spec the size, minority share and rates of a generated candidate set
 * @param metric parity or equal opportunity
 * @param where names the spec in messages
 * @returns the candidate set's group sizes, metric rows and positives
 * @example
 * const population = syntheticCandidatePopulation({ size: 10000, minorityShare: 0.3, positiveRates: [0.3, 0.2] },
 * 'parity', 'spec');
 */
export function syntheticCandidatePopulation(
  spec: SyntheticCandidateSpec,
  metric: AuditMetric,
  where: string,
): CandidatePopulation {
  const one = Math.round(spec.minorityShare * spec.size);
  const sizes: [number, number] = [spec.size - one, one];
  const eligible = sizes.map((n) => (metric === 'eo' ? Math.round((spec.labelShare ?? 0.5) * n) : n));
  const population: CandidatePopulation = {
    groupSizes: sizes,
    eligibleSizes: [eligible[0], eligible[1]],
    eligiblePositives: [
      Math.round(spec.positiveRates[0] * eligible[0]),
      Math.round(spec.positiveRates[1] * eligible[1]),
    ],
  };
  validateCandidatePopulation(population, where);
  return population;
}

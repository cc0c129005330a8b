import { type AuditDesign, groupAuditSizes } from '../audit/audit-design.js';
import type { CandidatePopulation } from './candidate-population.js';
import { hypergeometricWindow } from './hypergeometric-window.js';

/**
 * The law of (m₀, m₁), the metric's rows of each group in the audit set S (all rows of
 * the group for demographic parity, its label = 1 rows for equal opportunity), as a list
 * of blocks with their probabilities; blocks whose total probability is provably below
 * the tail bound are left out and counted in droppedMass.
 */
export interface AuditSetGroupLaw {
  /** P(m₀ = metricRows0[i], m₁ = metricRows1[i]). */
  weights: Float64Array;
  metricRows0: Int32Array;
  metricRows1: Int32Array;
  /** An upper bound on the probability of the blocks left out. */
  droppedMass: number;
}

/**
 * auditSetGroupLaw(population, auditSetSize, design, tailBound) is the law
 * of the metric's rows per group in S ⊂ C, |S| = n:
 * - uniform (paper B §4.1): m₀ ~ Hypergeometric(N, E₀, n), then m₁ | m₀ ~
 *   Hypergeometric(N − E₀, E₁, n − m₀) (Eₐ the metric's rows of group a; for
 *   demographic parity Eₐ = Nₐ, so m₀ ~ Hypergeometric(N, N₀, n) and m₁ = n − m₀);
 * - proportional / balanced (paper B §6.2): nₐ from groupAuditSizes (the simulation's
 *   rounding), mₐ ~ Hypergeometric(Nₐ, Eₐ, nₐ) independently (mₐ = nₐ for parity).
 * Each hypergeometric is cut by hypergeometricWindow at `tailBound`. O(number of blocks): about 2·7·sd for parity, its
 * square for equal
 * opportunity under uniform draws. Inputs are trusted (validated population, n ≤ N).
 */
export function auditSetGroupLaw(
  population: CandidatePopulation,
  auditSetSize: number,
  design: AuditDesign,
  tailBound: number,
): AuditSetGroupLaw {
  const [size0, size1] = population.groupSizes;
  const [eligible0, eligible1] = population.eligibleSizes;
  const total = size0 + size1;
  const weights: number[] = [];
  const rows0: number[] = [];
  const rows1: number[] = [];
  let droppedMass = 0;
  const perGroup = groupAuditSizes(design, population.groupSizes, auditSetSize);
  if (perGroup === null) {
    const first = hypergeometricWindow(total, eligible0, auditSetSize, tailBound);
    droppedMass += first.droppedMass;
    for (let i = 0; i < first.length; i++) {
      const m0 = first.first + i;
      const second = hypergeometricWindow(total - eligible0, eligible1, auditSetSize - m0, tailBound);
      droppedMass += first.probabilities[i] * second.droppedMass;
      for (let j = 0; j < second.length; j++) {
        weights.push(first.probabilities[i] * second.probabilities[j]);
        rows0.push(m0);
        rows1.push(second.first + j);
      }
    }
  } else {
    const first = hypergeometricWindow(size0, eligible0, perGroup[0], tailBound);
    const second = hypergeometricWindow(size1, eligible1, perGroup[1], tailBound);
    droppedMass += first.droppedMass + second.droppedMass;
    for (let i = 0; i < first.length; i++) {
      for (let j = 0; j < second.length; j++) {
        weights.push(first.probabilities[i] * second.probabilities[j]);
        rows0.push(first.first + i);
        rows1.push(second.first + j);
      }
    }
  }
  return {
    weights: Float64Array.from(weights),
    metricRows0: Int32Array.from(rows0),
    metricRows1: Int32Array.from(rows1),
    droppedMass,
  };
}

import { hoeffdingMargin } from './concentration-margin.js';
import { ceilFlipCount, flipsToLowerGap } from './flip-count.js';

/** A flip count that a respir audit forces, with how it was reached. */
export interface RespirFlips {
  /** Number of outputs the provider flips on the candidate set C. */
  flips: number;
  /**
   * True when the sufficient target ε − margin is below zero, so no manipulation
   * meets the 1 − δ guarantee: `flips` is then the count that removes the whole gap
   * (|d_C| = 0), the provider's best effort as paper B §5 reports it.
   */
  bestEffort: boolean;
  /** The concentration margin used (γ of Theorem 2, or γ_FPC of Theorem 4). */
  margin: number;
  /** The candidate-set gap the sufficient condition asks for: ε − margin (0 on best effort). */
  targetGap: number;
}

/**
 * respirFlipsForMargin(gap, tolerance, margin, candidateMinoritySize) is the count of
 * paper B's Theorem 1 (Eq. 4) for any concentration margin: ⌈(|d_C| − ε + margin)·N_min⌉
 * flips on C, or ⌈|d_C|·N_min⌉ flagged as best effort when ε − margin < 0 (§5, after
 * Table 3). It is a sufficient condition, not the provider's cost: flips that bring |d_C|
 * to ε − margin pass with probability ≥ 1 − δ, and fewer may too (exactMinimalFlips
 * gives the minimum). 0 when |d_C| ≤ ε: the theorems assume a model that would fail
 * (|d_C,true| > ε), and a provider within the tolerance has nothing to hide. Theorems 1,
 * 3 and 4 differ only in the margin and the minority stratum. O(1). The caller
 * validates its inputs.
 */
export function respirFlipsForMargin(
  gap: number,
  tolerance: number,
  margin: number,
  candidateMinoritySize: number,
): RespirFlips {
  if (Math.abs(gap) <= tolerance) return { flips: 0, bestEffort: false, margin, targetGap: tolerance - margin };
  const targetGap = tolerance - margin;
  if (targetGap < 0) {
    return {
      flips: ceilFlipCount(Math.abs(gap) * candidateMinoritySize),
      bestEffort: true,
      margin,
      targetGap: 0,
    };
  }
  return { flips: flipsToLowerGap(gap, targetGap, candidateMinoritySize), bestEffort: false, margin, targetGap };
}

/**
 * respirFlipBound(gap, tolerance, failureProbability, auditMinoritySize,
 * candidateMinoritySize) is paper B's Theorem 1 (Eq. 4): with γ = sqrt(2 ln(4/δ)/n_min)
 * (Theorem 2, δ ≤ ½), flipping ⌈(|d_C,true| − ε + γ)·N_min⌉ outputs on C so that |d_C|
 * reaches ε − γ is sufficient for a provider that cannot see S to pass with probability
 * at least 1 − δ; best effort (remove the whole gap) when ε − γ < 0; 0 when |d_C| ≤ ε.
 * A sufficient condition: the provider may need fewer (exactMinimalFlips). O(1). The
 * caller validates its inputs.
 * @param gap |d_C|
 * @param tolerance ε
 * @param failureProbability δ
 * @param auditMinoritySize minority rows in S
 * @param candidateMinoritySize minority rows in C
 * @returns respir's bound on the flips a provider needs
 * @example
 * respirFlipBound(0.1, 0.05, 0.2, 150, 1500);
 */
export function respirFlipBound(
  gap: number,
  tolerance: number,
  failureProbability: number,
  auditMinoritySize: number,
  candidateMinoritySize: number,
): RespirFlips {
  const margin = hoeffdingMargin(failureProbability, auditMinoritySize);
  return respirFlipsForMargin(gap, tolerance, margin, candidateMinoritySize);
}

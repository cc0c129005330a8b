import { type RespirFlips, respirFlipBound } from './respir-flip-bound.js';

/**
 * equalOpportunityFlipBound(gap, tolerance, failureProbability,
 * auditPositiveMinoritySize, candidatePositiveMinoritySize) is paper B's Theorem 3
 * (Appendix C): for the equal-opportunity gap (difference of true-positive rates),
 * γ_EO = sqrt(2 ln(4/δ)/n⁺_min) (δ ≤ ½) and ⌈(|d^EO_C,true| − ε + γ_EO)·N⁺_min⌉ flips
 * on label = 1 rows of C — what enforcing Theorem 3's sufficient condition takes, not a
 * lower bound on what passing takes (exactMinimalFlips with metric eo gives that) — where n⁺_min and N⁺_min are the
 * smaller group's label = 1
 * counts in S and C; best effort when ε − γ_EO < 0. It is Theorem 1 on the label = 1
 * rows, so it calls respirFlipBound with the positive counts. O(1). The caller validates.
 * @param gap |d_C|, the candidate set's equal-opportunity gap
 * @param tolerance ε
 * @param failureProbability δ: the provider wants to pass with probability at least 1 − δ
 * @param auditPositiveMinoritySize label-1 rows of the minority group in S
 * @param candidatePositiveMinoritySize label-1 rows of the minority group in C
 * @returns the flips the bound says a provider needs
 * @example
 * equalOpportunityFlipBound(0.1, 0.05, 0.2, 150, 1500);
 */
export function equalOpportunityFlipBound(
  gap: number,
  tolerance: number,
  failureProbability: number,
  auditPositiveMinoritySize: number,
  candidatePositiveMinoritySize: number,
): RespirFlips {
  return respirFlipBound(gap, tolerance, failureProbability, auditPositiveMinoritySize, candidatePositiveMinoritySize);
}

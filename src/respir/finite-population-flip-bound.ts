import { finitePopulationMargin, type GroupSizes } from './concentration-margin.js';
import { type RespirFlips, respirFlipsForMargin } from './respir-flip-bound.js';

/**
 * finitePopulationFlipBound(gap, tolerance, failureProbability, sizes) is paper B's
 * Theorem 4 (Appendix D): Theorem 1 with the finite-population margin γ_FPC built
 * from ρ₀, ρ₁ (Bardenet and Maillard's Hoeffding-Serfling refinement), so
 * ⌈(|d_C,true| − ε + γ_FPC)·N_min⌉ flips on C with N_min = min(N₀, N₁), enough to
 * enforce its sufficient condition (a provider may need fewer: exactMinimalFlips); best
 * effort when ε − γ_FPC < 0; 0 when |d_C| ≤ ε. Never more than respirFlipBound. O(1). The caller validates.
 * @param gap |d_C|
 * @param tolerance ε
 * @param failureProbability δ
 * @param sizes the audit set's and the candidate set's minority sizes
 * @returns the flips the finite-population bound says a provider needs
 * @example
 * finitePopulationFlipBound(0.1, 0.05, 0.2, { auditGroupSizes: [350, 150], candidateGroupSizes: [3500, 1500] });
 */
export function finitePopulationFlipBound(
  gap: number,
  tolerance: number,
  failureProbability: number,
  sizes: GroupSizes,
): RespirFlips {
  const margin = finitePopulationMargin(failureProbability, sizes);
  const candidateMinority = Math.min(sizes.candidateGroupSizes[0], sizes.candidateGroupSizes[1]);
  return respirFlipsForMargin(gap, tolerance, margin, candidateMinority);
}

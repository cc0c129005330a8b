import { flipsToLowerGap } from '../flip-count.js';
import { type RespirFlips, respirFlipsForMargin } from '../respir-flip-bound.js';
import {
  type MultiGroupSizes,
  multiGroupFinitePopulationMargin,
  multiGroupHoeffdingMargin,
} from './multi-group-margin.js';

/** smallestOf(values) is min(values). O(K). */
export function smallestOf(values: readonly number[]): number {
  let smallest = Number.POSITIVE_INFINITY;
  for (const value of values) if (value < smallest) smallest = value;
  return smallest;
}

/**
 * multiGroupVanillaFlipBound(maxGap, tolerance, auditGroupSizes) is Proposition 1 for K
 * groups: one flip moves one group's rate on S by 1/n_g, hence the max-gap max_g p_g −
 * min_g p_g by at most 1/n_g ≤ 1/n_min, so a provider that sees S flips at least
 * ⌈(D_S − ε)·n_min⌉ outputs on S (n_min = min_g n_g); 0 when D_S ≤ ε. At K = 2 it is
 * vanillaFlipBound. For equal opportunity or predictive equality pass the label = 1 or
 * label = 0 rows' sizes and gap. O(K). The caller validates.
 * @param maxGap D_S, the audit set's max-gap over groups
 * @param tolerance ε
 * @param auditGroupSizes n_g of every group's metric rows in S
 * @returns the fewest flips any vanilla provider needs, a lower bound
 * @example
 * multiGroupVanillaFlipBound(0.12, 0.05, [300, 150, 50]); // ⌈0.07·50⌉ = 4
 */
export function multiGroupVanillaFlipBound(
  maxGap: number,
  tolerance: number,
  auditGroupSizes: readonly number[],
): number {
  return flipsToLowerGap(maxGap, tolerance, smallestOf(auditGroupSizes));
}

/**
 * multiGroupRespirFlipBound(maxGap, tolerance, failureProbability, sizes) is Theorem 1 for K
 * groups: with γ_K = sqrt(2 ln(2K/δ)/n_min) (multiGroupHoeffdingMargin), D_C ≤ ε − γ_K is
 * sufficient to pass with probability ≥ 1 − δ, and since one flip moves D_C by at most
 * 1/N_min, enforcing it takes at least ⌈(D_C,true − ε + γ_K)·N_min⌉ flips on C (N_min =
 * min_g N_g); best effort ⌈D_C·N_min⌉ when ε − γ_K < 0; 0 when D_C ≤ ε. At K = 2 it is
 * respirFlipBound (Theorem 1), bit for bit; with label = 1 (label = 0) sizes it is Theorem 3
 * (its predictive-equality twin). O(K). The caller validates (δ ≤ ½ as Theorem 1 assumes).
 * @param maxGap D_C,true, the candidate set's max-gap over groups
 * @param tolerance ε
 * @param failureProbability δ
 * @param sizes n_g and N_g of every group's metric rows
 * @returns the flips enforcing the sufficient condition takes, with the margin and target
 * @example
 * multiGroupRespirFlipBound(0.12, 0.05, 0.2, { auditGroupSizes: [300, 150, 50], candidateGroupSizes: [3000, 1500, 500]
 * });
 */
export function multiGroupRespirFlipBound(
  maxGap: number,
  tolerance: number,
  failureProbability: number,
  sizes: MultiGroupSizes,
): RespirFlips {
  const groupCount = sizes.auditGroupSizes.length;
  const margin = multiGroupHoeffdingMargin(failureProbability, groupCount, smallestOf(sizes.auditGroupSizes), {
    kind: 'difference',
  });
  return respirFlipsForMargin(maxGap, tolerance, margin, smallestOf(sizes.candidateGroupSizes));
}

/**
 * multiGroupFinitePopulationFlipBound(maxGap, tolerance, failureProbability, sizes) is
 * Theorem 4 for K groups: Theorem 1's count with the margin γ_FPC,K, the sum of the two
 * largest t_g = sqrt(ρ_g ln(2K/δ)/(2 n_g)) (multiGroupFinitePopulationMargin):
 * ⌈(D_C,true − ε + γ_FPC,K)·N_min⌉, best effort when ε − γ_FPC,K < 0, 0 when D_C ≤ ε. Never
 * more than multiGroupRespirFlipBound; at K = 2 it is finitePopulationFlipBound, bit for bit.
 * O(K). The caller validates.
 * @param maxGap D_C,true
 * @param tolerance ε
 * @param failureProbability δ
 * @param sizes n_g and N_g of every group's metric rows
 * @returns the flips enforcing Theorem 4's sufficient condition takes
 * @example
 * multiGroupFinitePopulationFlipBound(0.12, 0.05, 0.2, { auditGroupSizes: [300, 150, 50],
 *   candidateGroupSizes: [3000, 1500, 500] });
 */
export function multiGroupFinitePopulationFlipBound(
  maxGap: number,
  tolerance: number,
  failureProbability: number,
  sizes: MultiGroupSizes,
): RespirFlips {
  const margin = multiGroupFinitePopulationMargin(failureProbability, sizes, { kind: 'difference' });
  return respirFlipsForMargin(maxGap, tolerance, margin, smallestOf(sizes.candidateGroupSizes));
}

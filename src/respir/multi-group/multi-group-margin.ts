import { finitePopulationFactor } from '../concentration-margin.js';

/**
 * The audit set's and the candidate set's per-group sizes of the metric rows (all rows for
 * demographic parity, label = 1 rows for equal opportunity, label = 0 rows for predictive
 * equality), index = group code 0..K-1, K ≥ 2.
 */
export interface MultiGroupSizes {
  /** n_g: metric rows of group g in the audit set S (each ≥ 1). */
  readonly auditGroupSizes: readonly number[];
  /** N_g: metric rows of group g in the candidate set C (N_g ≥ n_g). */
  readonly candidateGroupSizes: readonly number[];
}

/**
 * The audited functional: the max-gap max_g p_g − min_g p_g ≤ ε (`difference`), or the
 * ratio min_g p_g ≥ ρ·max_g p_g (`ratio`, with `ratio` = ρ in (0, 1]; LL144's impact
 * ratio, the four-fifths rule at ρ = 0.8).
 */
export type MultiGroupForm = { readonly kind: 'difference' } | { readonly kind: 'ratio'; readonly ratio: number };

/** The weight of the second-largest deviation in the margin: 1 for the max-gap, ρ for the ratio. */
function secondWeight(form: MultiGroupForm): number {
  return form.kind === 'difference' ? 1 : form.ratio;
}

/**
 * multiGroupHoeffdingMargin(failureProbability, groupCount, auditMinoritySize, form) is
 * Theorem 2 for K groups: with t = sqrt(ln(2K/δ)/(2·n_min)), every group rate of S is within t
 * of C's with probability ≥ 1 − δ (two-sided Hoeffding per group, union over K groups), and
 * then the max-gap of S exceeds C's by less than 2t = sqrt(2 ln(2K/δ)/n_min), the ratio slack
 * min − ρ·max falls by less than (1 + ρ)t. At K = 2 with the max-gap it is hoeffdingMargin,
 * bit for bit (2·2 = 4). O(1). The caller validates: δ in (0, 1), K ≥ 2, n_min ≥ 1.
 * @param failureProbability δ
 * @param groupCount K
 * @param auditMinoritySize n_min = min_g n_g
 * @param form the max-gap or the ratio form
 * @returns the margin γ_K by which C must beat the audit's threshold
 * @example
 * multiGroupHoeffdingMargin(0.2, 3, 150, { kind: 'difference' }); // sqrt(2 ln(30)/150)
 */
export function multiGroupHoeffdingMargin(
  failureProbability: number,
  groupCount: number,
  auditMinoritySize: number,
  form: MultiGroupForm,
): number {
  const logTerm = Math.log((2 * groupCount) / failureProbability);
  if (form.kind === 'difference') return Math.sqrt((2 * logTerm) / auditMinoritySize);
  return (1 + form.ratio) * Math.sqrt(logTerm / (2 * auditMinoritySize));
}

/**
 * multiGroupFinitePopulationMargin(failureProbability, sizes, form) is Theorem 4 for K
 * groups: t_g = sqrt(ρ_g ln(2K/δ)/(2 n_g)) with Bardenet and Maillard's ρ_g
 * (finitePopulationFactor); each group's rate deviates by more than t_g with probability
 * ≤ δ/K, so with probability ≥ 1 − δ none does, and then the max-gap of S exceeds C's by at
 * most max_{i≠j} t_i + t_j, the sum of the two largest t_g (the ratio slack falls by at most
 * t_(1) + ρ·t_(2)). At K = 2 with the max-gap it is finitePopulationMargin, bit for bit.
 * O(K). The caller validates: δ in (0, 1), K ≥ 2, 1 ≤ n_g ≤ N_g.
 * @param failureProbability δ
 * @param sizes n_g and N_g of every group
 * @param form the max-gap or the ratio form
 * @returns the finite-population margin γ_FPC,K
 * @example
 * multiGroupFinitePopulationMargin(0.2, { auditGroupSizes: [300, 150, 50], candidateGroupSizes: [3000, 1500, 500] },
 *   { kind: 'difference' });
 */
export function multiGroupFinitePopulationMargin(
  failureProbability: number,
  sizes: MultiGroupSizes,
  form: MultiGroupForm,
): number {
  const groupCount = sizes.auditGroupSizes.length;
  const logTerm = Math.log((2 * groupCount) / failureProbability);
  let largest = Number.NEGATIVE_INFINITY;
  let second = Number.NEGATIVE_INFINITY;
  for (let group = 0; group < groupCount; group++) {
    const sample = sizes.auditGroupSizes[group];
    const rho = finitePopulationFactor(sample, sizes.candidateGroupSizes[group]);
    const deviation = Math.sqrt((rho * logTerm) / (2 * sample));
    if (deviation > largest) {
      second = largest;
      largest = deviation;
    } else if (deviation > second) second = deviation;
  }
  return largest + secondWeight(form) * second;
}

/**
 * hoeffdingMargin(failureProbability, auditMinoritySize) is paper B's γ: the margin
 * γ = sqrt(2 ln(4/δ) / n_min) by which the candidate-set gap must sit below the
 * tolerance for a uniformly drawn audit set to pass with probability at least 1 − δ
 * (paper B, Theorem 2; proof in Appendix B: Hoeffding per group rate at γ/2, union
 * bound over the two groups). O(1). The caller validates: δ in (0, 1), n_min > 0.
 */
export function hoeffdingMargin(failureProbability: number, auditMinoritySize: number): number {
  return Math.sqrt((2 * Math.log(4 / failureProbability)) / auditMinoritySize);
}

/**
 * finitePopulationFactor(auditSetSize, populationSize) is paper B's ρₐ (Appendix D,
 * after Bardenet and Maillard 2015): 1 − (nₐ − 1)/Nₐ when nₐ ≤ Nₐ/2, else
 * (1 − nₐ/Nₐ)(1 + 1/nₐ). O(1).
 */
export function finitePopulationFactor(auditSetSize: number, populationSize: number): number {
  if (auditSetSize <= populationSize / 2) return 1 - (auditSetSize - 1) / populationSize;
  return (1 - auditSetSize / populationSize) * (1 + 1 / auditSetSize);
}

/** The group sizes that Theorem 4 needs: audit-set and candidate-set size of each group. */
export interface GroupSizes {
  /** n₀ and n₁: rows of group 0 and group 1 in the audit set S. */
  auditGroupSizes: readonly [number, number];
  /** N₀ and N₁: rows of group 0 and group 1 in the candidate set C. */
  candidateGroupSizes: readonly [number, number];
}

/**
 * finitePopulationMargin(failureProbability, sizes) is paper B's γ_FPC (Appendix D,
 * Theorem 4): sqrt(ρ₁ ln(4/δ) / (2n₁)) + sqrt(ρ₀ ln(4/δ) / (2n₀)). It never exceeds
 * hoeffdingMargin(δ, min(n₀, n₁)). O(1). The caller validates: δ in (0, 1),
 * 0 < nₐ ≤ Nₐ.
 */
export function finitePopulationMargin(failureProbability: number, sizes: GroupSizes): number {
  const logTerm = Math.log(4 / failureProbability);
  let margin = 0;
  for (const group of [0, 1] as const) {
    const sample = sizes.auditGroupSizes[group];
    const rho = finitePopulationFactor(sample, sizes.candidateGroupSizes[group]);
    margin += Math.sqrt((rho * logTerm) / (2 * sample));
  }
  return margin;
}

/**
 * The demographic-parity constraints of Agarwal et al. (2018), section 2, for a
 * two-valued protected attribute: for each group a in {0, 1} and each sign,
 *   gamma_(a,+)(h) = E[h(X) | A = a] - E[h(X)] <= epsilon,
 *   gamma_(a,-)(h) = -(E[h(X) | A = a] - E[h(X)]) <= epsilon.
 * Constraint k is stored at index 2 * a + (sign + ? 0 : 1).
 */
export const DEMOGRAPHIC_PARITY_CONSTRAINTS = 4;

/** Counts per group of a 0/1 group column. */
export interface GroupCounts {
  readonly total: number;
  readonly perGroup: readonly [number, number];
}

/** groupCounts(group) counts the rows of each group. O(rows). */
export function groupCounts(group: Uint8Array): GroupCounts {
  let ones = 0;
  for (let i = 0; i < group.length; i++) ones += group[i];
  return { total: group.length, perGroup: [group.length - ones, ones] };
}

/**
 * demographicParityMoments(decisions, group, counts) returns the four constraint
 * values gamma_k of a classifier whose training decisions (or mixture
 * probabilities) are given. O(rows).
 */
export function demographicParityMoments(
  decisions: ArrayLike<number>,
  group: Uint8Array,
  counts: GroupCounts,
): Float64Array {
  const sums = [0, 0];
  for (let i = 0; i < group.length; i++) sums[group[i]] += decisions[i];
  const overall = (sums[0] + sums[1]) / counts.total;
  const moments = new Float64Array(DEMOGRAPHIC_PARITY_CONSTRAINTS);
  for (let a = 0; a < 2; a++) {
    const difference = counts.perGroup[a] > 0 ? sums[a] / counts.perGroup[a] - overall : 0;
    moments[2 * a] = difference;
    moments[2 * a + 1] = -difference;
  }
  return moments;
}

/**
 * costSensitiveProblem(label, group, counts, multipliers) turns the Lagrangian
 * L(h, lambda) = err(h) + sum_k lambda_k (gamma_k(h) - epsilon) into a weighted
 * classification problem (Agarwal et al. 2018, section 3.1, the BEST_h oracle).
 * Predicting 1 on row i instead of 0 changes L by
 *   c_i = (1 - 2 y_i) / n + d_(a_i) / n_(a_i) - (d_0 + d_1) / n,  d_a = lambda_(a,+) - lambda_(a,-),
 * so the best response predicts 1 exactly where c_i < 0: the reduced label is
 * [c_i < 0] and the weight |c_i|, rescaled to mean 1. O(rows).
 */
export function costSensitiveProblem(
  label: Uint8Array,
  group: Uint8Array,
  counts: GroupCounts,
  multipliers: Float64Array,
): { label: Uint8Array; weight: Float64Array } {
  const n = counts.total;
  const difference = [multipliers[0] - multipliers[1], multipliers[2] - multipliers[3]];
  const shared = (difference[0] + difference[1]) / n;
  const groupTerm = [
    counts.perGroup[0] > 0 ? difference[0] / counts.perGroup[0] : 0,
    counts.perGroup[1] > 0 ? difference[1] / counts.perGroup[1] : 0,
  ];
  const reducedLabel = new Uint8Array(n);
  const weight = new Float64Array(n);
  let total = 0;
  for (let i = 0; i < n; i++) {
    const cost = (1 - 2 * label[i]) / n + groupTerm[group[i]] - shared;
    reducedLabel[i] = cost < 0 ? 1 : 0;
    weight[i] = Math.abs(cost);
    total += weight[i];
  }
  if (total > 0) for (let i = 0; i < n; i++) weight[i] = (weight[i] * n) / total;
  return { label: reducedLabel, weight };
}

import { createRandom, deriveSeed } from '../../util/random.js';

/**
 * mixtureProbability(decisionsPerModel, weights) is the probability that the mixture
 * Q (model t with probability weights[t]; uniform when weights is omitted) predicts 1
 * on each row: sum_t weights[t] * decision_t. O(T * rows).
 */
export function mixtureProbability(
  decisionsPerModel: readonly Uint8Array[],
  weights?: ArrayLike<number>,
): Float64Array {
  const rows = decisionsPerModel[0]?.length ?? 0;
  const probability = new Float64Array(rows);
  decisionsPerModel.forEach((decisions, t) => {
    const weight = weights === undefined ? 1 / decisionsPerModel.length : weights[t];
    if (weight === 0) return;
    for (let i = 0; i < rows; i++) probability[i] += weight * decisions[i];
  });
  for (let i = 0; i < rows; i++) probability[i] = Math.min(1, probability[i]);
  return probability;
}

/**
 * deployMixture(probability, rowIds, seed) fixes a randomized classifier into a
 * deterministic deployed one: row i gets decision 1 when a uniform draw seeded by
 * (seed, rowIds[i]) falls below probability[i]. The draw depends only on the seed and
 * the row's id, so a row's decision is the same whatever pool or order it appears in.
 * O(rows) seed derivations.
 */
export function deployMixture(probability: Float64Array, rowIds: Int32Array, seed: string): Uint8Array {
  const decision = new Uint8Array(probability.length);
  for (let i = 0; i < probability.length; i++) {
    const p = probability[i];
    if (p <= 0) continue;
    if (p >= 1) {
      decision[i] = 1;
      continue;
    }
    decision[i] = createRandom(deriveSeed(seed, 'mixture-draw', rowIds[i]))() < p ? 1 : 0;
  }
  return decision;
}

/** The smallest distance from 0 and 1 at which a mixture probability is clamped before its logit. */
export const LOGIT_CLAMP = 1e-6;

/** clampedLogit(p) = log(p / (1 - p)) with p clamped to [1e-6, 1 - 1e-6], so it stays finite. */
export function clampedLogit(p: number): number {
  const q = Math.min(1 - LOGIT_CLAMP, Math.max(LOGIT_CLAMP, p));
  return Math.log(q / (1 - q));
}

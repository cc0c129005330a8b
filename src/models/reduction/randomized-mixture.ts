import { createRandom, deriveSeed } from '../../util/random.js';

/**
 * mixtureProbability(decisionsPerModel) averages the 0/1 decisions of the models of
 * a uniform mixture Q: the probability that Q predicts 1 on each row. O(T * rows).
 */
export function mixtureProbability(decisionsPerModel: readonly Uint8Array[]): Float64Array {
  const rows = decisionsPerModel[0]?.length ?? 0;
  const probability = new Float64Array(rows);
  for (const decisions of decisionsPerModel) for (let i = 0; i < rows; i++) probability[i] += decisions[i];
  for (let i = 0; i < rows; i++) probability[i] /= decisionsPerModel.length;
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

import type { MlpSettings } from '../../src/models/mlp/mlp-settings.js';
import type { ModelPreset } from '../../src/models/model-preset.js';

/** Paper A's Robust-Base: 64 and 32 ReLU units, dropout 0.1, Adam lr 1e-3, 30 epochs. */
export const ROBUST_BASE_SETTINGS: MlpSettings = {
  hiddenLayers: [64, 32],
  dropoutRate: 0.1,
  learningRate: 1e-3,
  epochs: 30,
  batchSize: 32,
};

/** Paper A's Unstable-Base: 16 ReLU units, Adam lr 1e-2, 1 epoch, no regularisation. */
export const UNSTABLE_BASE_SETTINGS: MlpSettings = {
  hiddenLayers: [16],
  dropoutRate: 0,
  learningRate: 1e-2,
  epochs: 1,
  batchSize: 32,
};

/** Fairlearn's DemographicParity() default difference_bound: the constraint bound a user who sets only eps gets. */
export const FAIRLEARN_DEFAULT_DIFFERENCE_BOUND = 0.01;

/**
 * fairlearnReduction(eps, maxIterations) reads paper A's "tolerance parameter eps" as a
 * Fairlearn user's call `ExponentiatedGradient(estimator, DemographicParity(), eps=eps,
 * max_iter=maxIterations)` (paper A cites Fairlearn [2] for the reduction): in Fairlearn
 * (>= 0.5) eps sets only the multiplier bound B = 1/eps, and the constraint bound is
 * DemographicParity's default difference_bound, 0.01. Both are written out so the preset
 * says what it trains; the best responses are weighed by Fairlearn's LP step. See
 * docs/models.md ("Paper A's eps, read as Fairlearn's"). O(1).
 */
export function fairlearnReduction(eps: number, maxIterations: number) {
  return {
    differenceBound: FAIRLEARN_DEFAULT_DIFFERENCE_BOUND,
    multiplierBound: 1 / eps,
    maxIterations,
    mixture: 'linear-program' as const,
  };
}

/**
 * Paper A section 4.2's four audited models, the names papers/paper-a/configs/models/*.yaml
 * list: Robust-DP with eps = 0.02 and up to 10 iterations, Unstable-DP with eps = 0.05
 * and up to 2 (fairlearnReduction: constraint bound 0.01, B = 50 and 20). expectedCost
 * only orders training (slowest first).
 */
export const PAPER_A_MODEL_PRESETS: readonly ModelPreset[] = [
  { type: 'mlp', expectedCost: 1, spec: { name: 'robust-base', mlp: ROBUST_BASE_SETTINGS, reduction: null } },
  { type: 'mlp', expectedCost: 0.1, spec: { name: 'unstable-base', mlp: UNSTABLE_BASE_SETTINGS, reduction: null } },
  {
    type: 'mlp',
    expectedCost: 10,
    spec: { name: 'robust-dp', mlp: ROBUST_BASE_SETTINGS, reduction: fairlearnReduction(0.02, 10) },
  },
  {
    type: 'mlp',
    expectedCost: 0.2,
    spec: { name: 'unstable-dp', mlp: UNSTABLE_BASE_SETTINGS, reduction: fairlearnReduction(0.05, 2) },
  },
];

/** paperAModelPreset(name) is one of PAPER_A_MODEL_PRESETS by name (tests and benchmarks). Throws when unknown. */
export function paperAModelPreset(name: string): ModelPreset {
  const preset = PAPER_A_MODEL_PRESETS.find((entry) => entry.spec.name === name);
  if (preset === undefined) throw new Error(`paperAModelPreset: no paper A model named ${name}`);
  return preset;
}

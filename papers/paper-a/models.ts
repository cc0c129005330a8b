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

/**
 * Paper A section 4.2's four audited models, the names papers/paper-a/configs/models/*.yaml
 * list. The reductions weigh their best responses by Fairlearn's LP step (the toolkit
 * paper A cites for the reduction), not the plain average of Agarwal et al.'s
 * Algorithm 1; see docs/models.md. expectedCost only orders training (slowest first).
 */
export const PAPER_A_MODEL_PRESETS: readonly ModelPreset[] = [
  { type: 'mlp', expectedCost: 1, spec: { name: 'robust-base', mlp: ROBUST_BASE_SETTINGS, reduction: null } },
  { type: 'mlp', expectedCost: 0.1, spec: { name: 'unstable-base', mlp: UNSTABLE_BASE_SETTINGS, reduction: null } },
  {
    type: 'mlp',
    expectedCost: 10,
    spec: { name: 'robust-dp', mlp: ROBUST_BASE_SETTINGS, reduction: { tolerance: 0.02, maxIterations: 10, mixture: 'linear-program' } },
  },
  {
    type: 'mlp',
    expectedCost: 0.2,
    spec: { name: 'unstable-dp', mlp: UNSTABLE_BASE_SETTINGS, reduction: { tolerance: 0.05, maxIterations: 2, mixture: 'linear-program' } },
  },
];

/** paperAModelPreset(name) is one of PAPER_A_MODEL_PRESETS by name (tests and benchmarks). Throws when unknown. */
export function paperAModelPreset(name: string): ModelPreset {
  const preset = PAPER_A_MODEL_PRESETS.find((entry) => entry.spec.name === name);
  if (preset === undefined) throw new Error(`paperAModelPreset: no paper A model named ${name}`);
  return preset;
}

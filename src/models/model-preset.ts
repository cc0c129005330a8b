import type { BoostedTreesSpec } from './boosted-trees.js';
import type { MlpModelSpec } from './mlp-model.js';

/**
 * A named model a training config can list (`models: [robust-base, ...]`): an MLP
 * model or tuned boosted trees, with its full spec. The spec's name is the preset's
 * name; the spec (not the preset) is part of the model-cache key. The papers' presets
 * live in papers/<paper>/models.ts; the CLI passes them to `models train`.
 */
export type ModelPreset =
  | { readonly type: 'mlp'; readonly spec: MlpModelSpec; readonly expectedCost?: number }
  | { readonly type: 'boosted-trees'; readonly spec: BoostedTreesSpec; readonly expectedCost?: number };

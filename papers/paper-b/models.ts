import type { ModelPreset } from '../../src/models/model-preset.js';
import { GRADIENT_BOOSTING_DEFAULTS } from '../../src/models/trees/gradient-boosting.js';
import type { SearchSpace } from '../../src/models/trees/random-search.js';

/**
 * Paper B section 5's search space for the boosted trees: learning rate log-uniform in
 * [0.01, 1], leaf nodes in [20, 50), iterations in [10, 1000).
 */
export const PAPER_B_SEARCH_SPACE: SearchSpace = {
  learningRate: [0.01, 1],
  maxLeafNodes: [20, 50],
  maxIterations: [10, 1000],
};

/**
 * Paper B section 5's tuned boosted trees, the model papers/paper-b/configs/models/*.yaml
 * name: 10 random draws scored by 5-fold CV, scikit-learn's other defaults.
 */
export const PAPER_B_MODEL_PRESETS: readonly ModelPreset[] = [
  {
    type: 'boosted-trees',
    expectedCost: 5,
    spec: { name: 'boosted-trees', draws: 10, folds: 5, space: PAPER_B_SEARCH_SPACE, base: GRADIENT_BOOSTING_DEFAULTS },
  },
];

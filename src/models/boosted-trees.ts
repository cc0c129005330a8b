import type { TabularData } from '../data/tabular.js';
import type { ScoredModel } from './mlp-model.js';
import type { ModelCard } from './model-card.js';
import { poolFigures } from './model-card.js';
import { poolFromLogits } from './scored-pool.js';
import { foldFitPool } from './trees/fold-fit-pool.js';
import { boostedLogits, type GradientBoostingSettings } from './trees/gradient-boosting.js';
import { randomSearch, type SearchSpace } from './trees/random-search.js';
import { workersAvailable } from './workers-available.js';

/** Tuned boosted trees: the random search and the untuned settings (paper B's are a preset: papers/paper-b/models.ts).
 * */
export interface BoostedTreesSpec {
  readonly name: string;
  readonly draws: number;
  readonly folds: number;
  readonly space: SearchSpace;
  readonly base: GradientBoostingSettings;
}

/**
 * trainBoostedTreesModel(spec, datasetName, train, heldOut, seed, onProgress) tunes
 * histogram gradient-boosted trees on `train` by random search with cross-validation
 * (randomSearch), refits the best on all of `train`, and scores `heldOut` into an
 * audit pool (logit = the boosted log-odds, score its sigmoid, decision [score >=
 * 0.5]). The card's details hold the chosen hyperparameters and every candidate's
 * CV accuracy. With threads > 1 (and dist/ built) the cross-validation fits run on
 * that many worker threads (same result). Runs draws * folds + 1 fits.
 */
export async function trainBoostedTreesModel(
  spec: BoostedTreesSpec,
  datasetName: string,
  train: TabularData,
  heldOut: TabularData,
  seed: string,
  threads = 1,
  onProgress?: (done: number, total: number) => void,
): Promise<ScoredModel> {
  const started = performance.now();
  const trainRows = Int32Array.from({ length: train.rows }, (_, i) => i);
  const search = await randomSearch(
    train,
    train.label,
    trainRows,
    { draws: spec.draws, folds: spec.folds, space: spec.space, base: spec.base },
    seed,
    onProgress,
    threads > 1 && workersAvailable() ? foldFitPool(train, train.label, spec.base, seed, threads) : undefined,
  );
  const heldOutRows = Int32Array.from({ length: heldOut.rows }, (_, i) => i);
  const pool = poolFromLogits(
    heldOut,
    boostedLogits(search.model, heldOut, heldOutRows),
    `model:${datasetName}/${spec.name}`,
  );
  const card: ModelCard = {
    model: spec.name,
    dataset: datasetName,
    settings: { draws: spec.draws, folds: spec.folds, space: spec.space, base: spec.base },
    seed,
    trainingRows: train.rows,
    ...poolFigures(pool),
    trainingSeconds: (performance.now() - started) / 1000,
    details: {
      chosen: search.best.hyperparameters,
      crossValidatedAccuracy: search.best.meanAccuracy,
      trees: search.model.trees.length,
      candidates: search.candidates,
    },
  };
  return { pool, card };
}

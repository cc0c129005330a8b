import { trainBoostedTrees } from '../../src/models/train-models.js';
import { inputError } from '../../src/util/errors.js';
import type { CandidateSetModel } from './table-2.js';

/** Makes the candidate set of one Table 2 setting (a trained model's outputs on C and S). */
export type CandidateSetProvider = (setting: { dataset: string; datasetLabel: string; attribute: string }) => Promise<CandidateSetModel>;

/** The seeds of our paper B models (configs/models/*-paper-b.yaml use the same). */
export const paperBModelSeed = 2026;

/**
 * trainedCandidateSets(options) is the default provider: paper B's tuned boosted trees
 * (src/models trainBoostedTrees: paper B's split of the dataset for the attribute,
 * 10-draw random search with 5-fold CV, refit) trained or read from the model cache,
 * scored on the candidate set C and its audit set S. Throws InputError when the
 * dataset is missing (the caller lists the setting as unavailable).
 */
export function trainedCandidateSets(options: { dataDirectory?: string; threads?: number }): CandidateSetProvider {
  return async (setting) => {
    const model = await trainBoostedTrees(setting.dataset, setting.attribute, paperBModelSeed, {
      seed: paperBModelSeed,
      threads: options.threads ?? 1,
      dataDirectory: options.dataDirectory,
    });
    if (model.auditPool === null) {
      throw inputError({ where: `${setting.dataset}/${setting.attribute}`, expected: "a paper B split with an audit set", found: 'no audit pool' });
    }
    return {
      dataset: setting.dataset,
      datasetLabel: setting.datasetLabel,
      attribute: setting.attribute,
      datasetSize: model.card.trainingRows + model.card.poolRows,
      candidatePool: model.pool,
      auditPool: model.auditPool,
    };
  };
}

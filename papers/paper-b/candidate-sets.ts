import { type TrainedModel, trainFromConfig } from '../../src/models/train-models.js';
import { loadModelTrainingConfig } from '../../src/models/training-config.js';
import { inputError } from '../../src/util/errors.js';
import { paperBModelConfig } from './files.js';
import { PAPER_B_MODEL_PRESETS } from './models.js';
import type { CandidateSetModel } from './table-2.js';

/** Makes the candidate set of one Table 2 setting (a trained model's outputs on C and S). */
export type CandidateSetProvider = (setting: {
  dataset: string;
  datasetLabel: string;
  attribute: string;
}) => Promise<CandidateSetModel>;

/**
 * trainedCandidateSets(options) is the default provider: paper B's tuned boosted trees
 * (paper B's split of the dataset for the attribute, 10-draw random search with 5-fold
 * CV, refit) trained from the setting's preset, papers/paper-b/configs/models/
 * <dataset>-<attribute>.yaml (the config `fairaudit models train` reads, so both warm
 * the same cache entries), or read from the model cache unless `refresh`; scored on the
 * candidate set C and its audit set S. Throws InputError when the dataset is missing
 * (the caller lists the setting as unavailable).
 */
export function trainedCandidateSets(options: {
  dataDirectory?: string;
  threads?: number;
  refresh?: boolean;
  /** Progress: a model starting to train, then its search's fits done of total. */
  onProgress?: (stage: string, done?: number, total?: number) => void;
}): CandidateSetProvider {
  return async (setting) => {
    const configFile = paperBModelConfig(setting.dataset, setting.attribute);
    const [model] = await trainFromConfig(loadModelTrainingConfig(configFile), PAPER_B_MODEL_PRESETS, configFile, {
      threads: options.threads ?? 1,
      dataDirectory: options.dataDirectory,
      refresh: options.refresh ?? false,
      onModelStart: (name) => options.onProgress?.(`training ${name} (not in the model cache)`),
      onModelProgress: (name, done, total) => options.onProgress?.(`training ${name}: search fits`, done, total),
    });
    return candidateSetOfModel(setting, model);
  };
}

/**
 * candidateSetOfModel(setting, model) is a trained boosted-trees model of a Table 2
 * setting as paper B's candidate set C (the model's pool) and audit set S (its audit
 * pool). Throws InputError when the model's split has no audit set. O(1).
 */
export function candidateSetOfModel(
  setting: { dataset: string; datasetLabel: string; attribute: string },
  model: TrainedModel,
): CandidateSetModel {
  if (model.auditPool === null) {
    throw inputError({
      where: `${setting.dataset}/${setting.attribute}`,
      expected: 'a paper B split with an audit set',
      found: 'no audit pool',
    });
  }
  return {
    dataset: setting.dataset,
    datasetLabel: setting.datasetLabel,
    attribute: setting.attribute,
    datasetSize: model.card.trainingRows + model.card.poolRows,
    candidatePool: model.pool,
    auditPool: model.auditPool,
  };
}

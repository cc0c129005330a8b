import type { TrainedModel } from '../../src/models/train-models.js';
import { type SeedCounts, type SeedGridOutcome, trainConfigsOverSeeds } from '../../src/models/train-seed-grid.js';
import { loadModelTrainingConfig } from '../../src/models/training-config.js';
import { inputError } from '../../src/util/errors.js';
import { modelTrainingProgress } from '../model-training-progress.js';
import { paperBModelConfig } from './files.js';
import { PAPER_B_MODEL_PRESETS } from './models.js';
import type { CandidateSetModel } from './table-2.js';

/** Makes the candidate set of one Table 2 setting (a trained model's outputs on C and S). */
export type CandidateSetProvider = (setting: {
  dataset: string;
  datasetLabel: string;
  attribute: string;
}) => Promise<CandidateSetModel>;

/** A Table 2 setting: its dataset (and label) and protected attribute. */
export interface CandidateSetSetting {
  readonly dataset: string;
  readonly datasetLabel: string;
  readonly attribute: string;
}

/**
 * trainedCandidateSets(options) is the default provider: paper B's tuned boosted trees
 * (paper B's split of the dataset for the attribute, 10-draw random search with 5-fold
 * CV, refit) trained from the setting's preset, papers/paper-b/configs/models/
 * <dataset>-<attribute>.yaml (the config `fairaudit models train` reads, so both warm
 * the same cache entries), or read from the model cache unless `refresh`; scored on the
 * candidate set C and its audit set S. The first call trains every setting of
 * `options.settings` (and, with `options.seeds`, every seed pair of each, whose base pair
 * is the single run's model) on one pool of worker threads, longest first; later calls
 * take their setting's model from that. Throws InputError when the dataset is missing
 * (the caller lists the setting as unavailable).
 */
export function trainedCandidateSets(options: {
  /** Every setting the reproduction will ask for, trained together on the first call. */
  settings: readonly CandidateSetSetting[];
  /** Training variability to come: train each setting's seed pairs now too, so the seed stage reads the cache. */
  seeds?: SeedCounts;
  dataDirectory?: string;
  threads?: number;
  refresh?: boolean;
  /** Progress lines: each model starting, its search's fits every few seconds, its end. */
  onProgress?: (stage: string, done?: number, total?: number) => void;
}): CandidateSetProvider {
  let trained: Promise<SeedGridOutcome[]> | undefined;
  const settingKey = (setting: CandidateSetSetting) => `${setting.dataset}/${setting.attribute}`;
  const keys = options.settings.map(settingKey);
  const trainAll = (settings: readonly CandidateSetSetting[]) => {
    const configs = settings.map((setting) => {
      const file = paperBModelConfig(setting.dataset, setting.attribute);
      return { config: loadModelTrainingConfig(file), catalogue: PAPER_B_MODEL_PRESETS, file };
    });
    return trainConfigsOverSeeds(configs, options.seeds ?? { modelSeeds: 1, splitSeeds: 1 }, {
      threads: options.threads,
      dataDirectory: options.dataDirectory,
      refresh: options.refresh ?? false,
      ...modelTrainingProgress((stage) => options.onProgress?.(stage)),
    });
  };
  return async (setting) => {
    const index = keys.indexOf(settingKey(setting));
    let outcome: SeedGridOutcome;
    if (index < 0) [outcome] = await trainAll([setting]);
    else {
      trained ??= trainAll(options.settings);
      outcome = (await trained)[index];
    }
    if (!outcome.trained) throw outcome.error;
    return candidateSetOfModel(setting, outcome.pairs[0].models[0]);
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

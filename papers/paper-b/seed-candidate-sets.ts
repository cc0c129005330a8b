import { type SeedCounts, seedAxisOf, trainFromConfigOverSeeds } from '../../src/models/train-seed-grid.js';
import { loadModelTrainingConfig } from '../../src/models/training-config.js';
import type { SeedAxis } from '../../src/report/training-variability.js';
import { modelTrainingProgress } from '../model-training-progress.js';
import { candidateSetOfModel } from './candidate-sets.js';
import { paperBModelConfig } from './files.js';
import { PAPER_B_MODEL_PRESETS } from './models.js';
import type { CandidateSetModel } from './table-2.js';

/** One seed pair's candidate set of a Table 2 setting. */
export interface SeedCandidateSet {
  readonly splitSeed: string;
  readonly modelSeed: string;
  readonly axis: SeedAxis;
  readonly model: CandidateSetModel;
}

/** Makes a Table 2 setting's candidate sets under every seed pair of `counts` (the base pair first). Injected so tests
 * need no training. */
export type SeedCandidateSetsProvider = (
  setting: { dataset: string; datasetLabel: string; attribute: string },
  counts: SeedCounts,
) => Promise<SeedCandidateSet[]>;

/**
 * trainedSeedCandidateSets(options) is the default SeedCandidateSetsProvider: the
 * setting's preset (papers/paper-b/configs/models/<dataset>-<attribute>.yaml; its split
 * seed and model seed are the base pair, the single run's model) trained over
 * seedAxes(base, counts) through trainFromConfigOverSeeds: counts.modelSeeds tree
 * searches on the base split, then counts.splitSeeds - 1 more splits (other candidate
 * and audit sets) with the base model seed, every search on one pool of worker threads
 * and the model cache. Throws InputError when the dataset is missing. Running time:
 * (modelSeeds + splitSeeds - 1) searches of 50 CV fits and a refit, when not cached.
 */
export function trainedSeedCandidateSets(options: {
  dataDirectory?: string;
  threads?: number;
  refresh?: boolean;
  /** Progress lines of the models that train (none when all come from the cache). */
  onProgress?: (stage: string) => void;
}): SeedCandidateSetsProvider {
  return async (setting, counts) => {
    const configFile = paperBModelConfig(setting.dataset, setting.attribute);
    const grid = await trainFromConfigOverSeeds(
      loadModelTrainingConfig(configFile),
      PAPER_B_MODEL_PRESETS,
      configFile,
      counts,
      {
        threads: options.threads,
        dataDirectory: options.dataDirectory,
        refresh: options.refresh ?? false,
        ...modelTrainingProgress((stage) => options.onProgress?.(stage)),
      },
    );
    return grid.map((pair) => ({
      splitSeed: String(pair.splitSeed),
      modelSeed: String(pair.modelSeed),
      axis: seedAxisOf(grid[0], pair),
      model: candidateSetOfModel(setting, pair.models[0]),
    }));
  };
}

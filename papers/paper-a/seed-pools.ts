import { type SeedCounts, seedAxisOf, trainFromConfigOverSeeds } from '../../src/models/train-seed-grid.js';
import { loadModelTrainingConfig } from '../../src/models/training-config.js';
import type { SeedAxis } from '../../src/report/training-variability.js';
import { isInputError } from '../../src/util/errors.js';
import { modelTrainingProgress } from '../model-training-progress.js';
import type { PaperADataset } from './calibrated-pools.js';
import { paperAModelConfig } from './files.js';
import { PAPER_A_MODEL_PRESETS } from './models.js';
import type { SourcedPool } from './pool-sources.js';
import { registryName, sourcedPoolsOfModels, type TrainedPoolsOptions } from './trained-pools.js';

/** One seed pair's trained pools of a dataset: which split seed and model seed, on which axis. */
export interface SeedPairPools {
  readonly splitSeed: string;
  readonly modelSeed: string;
  readonly axis: SeedAxis;
  readonly pools: readonly SourcedPool[];
}

/** A dataset's pools over the seed pairs (the base pair first), or why they could not be made. */
export type DatasetSeedPools =
  | { readonly available: true; readonly pairs: readonly SeedPairPools[] }
  | { readonly available: false; readonly reason: string };

/** Trains (or reads from the cache) one dataset's four models under every seed pair of `counts`. Injected so tests need
 * no training. */
export type SeedPoolsProvider = (dataset: PaperADataset, counts: SeedCounts) => Promise<DatasetSeedPools>;

/**
 * trainedSeedPools(options) is the default SeedPoolsProvider: the dataset's preset
 * (papers/paper-a/configs/models/<dataset>.yaml, whose split seed and model seed are the
 * base pair, the single run's models) trained over seedAxes(base, counts) through
 * trainFromConfigOverSeeds: counts.modelSeeds model seeds on the base split, then
 * counts.splitSeeds - 1 more splits with the base model seed, all on one pool of worker
 * threads and the model cache (a rerun with more seeds trains only the new pairs). A
 * missing or partial dataset comes back unavailable with the loader's message. Running
 * time: (modelSeeds + splitSeeds - 1) × the four models' training when not cached.
 */
export function trainedSeedPools(options: TrainedPoolsOptions = {}): SeedPoolsProvider {
  return async (dataset, counts) => {
    const name = registryName(dataset);
    if (name === null)
      return {
        available: false,
        reason: `fairaudit's dataset registry has no loader for ${dataset} (src/data/registry.ts).`,
      };
    const configFile = paperAModelConfig(name);
    try {
      options.onStage?.(
        `models: ${name} over ${counts.modelSeeds} model seeds and ${counts.splitSeeds} split seeds (trained, or ` +
          `read from the cache)`,
      );
      const grid = await trainFromConfigOverSeeds(
        loadModelTrainingConfig(configFile),
        PAPER_A_MODEL_PRESETS,
        configFile,
        counts,
        {
          dataDirectory: options.dataDirectory,
          cacheDirectory: options.cacheDirectory,
          threads: options.threads,
          refresh: options.refresh ?? false,
          ...modelTrainingProgress((stage) => options.onStage?.(stage)),
        },
      );
      const base = grid[0];
      return {
        available: true,
        pairs: grid.map((pair) => ({
          splitSeed: String(pair.splitSeed),
          modelSeed: String(pair.modelSeed),
          axis: seedAxisOf(base, pair),
          pools: sourcedPoolsOfModels(dataset, pair.models, configFile),
        })),
      };
    } catch (error) {
      if (isInputError(error)) return { available: false, reason: error.message };
      throw error;
    }
  };
}

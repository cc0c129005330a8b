import { datasetNames } from '../../src/data/registry.js';
import { type TrainedModel, trainFromConfig } from '../../src/models/train-models.js';
import { type SeedCounts, trainFromConfigOverSeeds } from '../../src/models/train-seed-grid.js';
import { loadModelTrainingConfig } from '../../src/models/training-config.js';
import { isInputError } from '../../src/util/errors.js';
import { modelTrainingProgress } from '../model-training-progress.js';
import type { PaperADataset } from './calibrated-pools.js';
import { paperAModelConfig } from './files.js';
import { PAPER_A_MODEL_PRESETS } from './models.js';
import type { DatasetPools, SourcedPool, TrainedPoolsProvider } from './pool-sources.js';
import { PAPER_A_POOLS } from './pools.js';

/** The registry name of a paper A dataset, or null when the registry has no loader for it. */
export function registryName(dataset: PaperADataset): string | null {
  const names = datasetNames();
  if (dataset === 'adult') return names.includes('adult') ? 'adult' : null;
  return names.find((name) => name.startsWith('acs')) ?? null;
}

/** Options of trainedPools. */
export interface TrainedPoolsOptions {
  /** A local mirror (else FAIRAUDIT_DATA_DIR, else data/downloads/). */
  dataDirectory?: string;
  /** The model cache (default data/cache/models/). */
  cacheDirectory?: string;
  /** Retrain even when cached. */
  refresh?: boolean;
  /** Threads training models at once (default: the models area's default). */
  threads?: number;
  /**
   * Training variability to come (trainedPools only): train every seed pair's models now,
   * on one pool with the single run's (its base pair), so the seed stage reads them from the cache.
   */
  seeds?: SeedCounts;
  onStage?: (stage: string) => void;
}

/**
 * trainedPools(options) returns the provider that makes a paper A dataset's four audit
 * pools by training the dataset's model preset, papers/paper-a/configs/models/<dataset>.yaml
 * (the same config `fairaudit models train` reads, so both warm the same cache entries),
 * through the models area's cache-aware trainFromConfig: load the dataset (mirror,
 * FAIRAUDIT_DATA_DIR or data/downloads/; checksums verified), split it 70/30 stratified
 * by label (paper A §4.1, seeded), train the four models of §4.2 or read them from the
 * cache, and score the test part. A dataset that is missing or partial (the ACS mirror
 * has no feature columns) comes back unavailable, with the loader's message as the
 * reason. Running time: training when not cached (minutes), else reading 4 pools.
 */
export function trainedPools(options: TrainedPoolsOptions = {}): TrainedPoolsProvider {
  return async (dataset: PaperADataset): Promise<DatasetPools> => {
    const name = registryName(dataset);
    if (name === null) {
      return {
        available: false,
        reason: `fairaudit's dataset registry has no loader for ${dataset} (src/data/registry.ts).`,
      };
    }
    const configFile = paperAModelConfig(name);
    const config = loadModelTrainingConfig(configFile);
    let models: TrainedModel[];
    const training = {
      dataDirectory: options.dataDirectory,
      cacheDirectory: options.cacheDirectory,
      threads: options.threads,
      refresh: options.refresh ?? false,
      ...modelTrainingProgress((stage) => options.onStage?.(stage)),
    };
    try {
      if (options.seeds === undefined) {
        options.onStage?.(`models: ${name} (trained, or read from the cache)`);
        models = await trainFromConfig(config, PAPER_A_MODEL_PRESETS, configFile, {
          ...training,
          onModelReady: (model) => {
            if (model.fromCache) options.onStage?.(`model ${name}/${model.name} read from the cache`);
          },
        });
      } else {
        const { modelSeeds, splitSeeds } = options.seeds;
        options.onStage?.(
          `models: ${name} with its ${modelSeeds} model seeds and ${splitSeeds} split seeds, on one pool ` +
            `(trained, or read from the cache)`,
        );
        // The base pair's models are the single run's, trained (or read) with the other pairs' in one queue.
        const grid = await trainFromConfigOverSeeds(config, PAPER_A_MODEL_PRESETS, configFile, options.seeds, training);
        models = grid[0].models;
      }
    } catch (error) {
      if (isInputError(error)) return { available: false, reason: error.message };
      throw error;
    }
    return { available: true, pools: sourcedPoolsOfModels(dataset, models, configFile) };
  };
}

/**
 * sourcedPoolsOfModels(dataset, models, configFile) pairs a dataset's four paper A pools
 * with the trained models of the same names (their test-part pools and cards). Throws
 * when the config trained no model of a pool's name. O(pools × models).
 */
export function sourcedPoolsOfModels(
  dataset: PaperADataset,
  models: readonly TrainedModel[],
  configFile: string,
): SourcedPool[] {
  return PAPER_A_POOLS.filter((entry) => entry.dataset === dataset).map((pool) => {
    const model = models.find((candidate) => candidate.name === pool.model);
    if (model === undefined) throw new Error(`trainedPools: ${configFile} trained no ${pool.model}`);
    return {
      pool,
      auditPool: model.pool,
      origin: 'trained-model' as const,
      reason: null,
      card: model.card as unknown as Record<string, unknown>,
      cached: model.fromCache,
    };
  });
}

import { type LoadDatasetOptions, loadDataset } from '../data/load-dataset.js';
import { prepareSplit, type SplitOptions } from '../data/prepare-split.js';
import { inputError } from '../util/errors.js';
import type { ModelPreset } from './model-preset.js';
import {
  type ModelTrainingOptions,
  planModelsOnSplit,
  presetsOfConfig,
  runTrainingPlans,
  type SplitForModels,
  splitFingerprint,
  type TrainedModel,
  type TrainFromConfigOptions,
} from './train-models.js';
import type { ModelTrainingConfig } from './training-config.js';

/** One training run's two seeds: the split's (which rows train, which are the pool) and the models'. */
export interface SeedPair {
  readonly splitSeed: string | number;
  readonly modelSeed: string | number;
}

/** The models trained (or read from the cache) for one seed pair. */
export interface SeedPairModels extends SeedPair {
  readonly models: TrainedModel[];
}

/** What trainModelsOverSeeds needs: the dataset, and the split settings without their seed. */
export interface SeedGridRequest extends LoadDatasetOptions {
  readonly dataset: string;
  readonly split: Omit<SplitOptions, 'seed'>;
}

/**
 * seedSeries(base, count) names `count` seeds along one axis: the base seed itself first
 * (so seed 0 is the single run's model), then "base/1", "base/2", ... Throws InputError
 * unless count is an integer >= 1. O(count).
 */
export function seedSeries(base: string | number, count: number): string[] {
  if (!(Number.isInteger(count) && count >= 1)) {
    throw inputError({ where: 'seedSeries: count', expected: 'an integer >= 1', found: count });
  }
  return Array.from({ length: count }, (_, k) => (k === 0 ? String(base) : `${base}/${k}`));
}

/** How many seeds each axis of training variability gets (each at least 1). */
export interface SeedCounts {
  readonly modelSeeds: number;
  readonly splitSeeds: number;
}

/**
 * seedAxes(base, counts) lays out the two axes of training variability around the base
 * pair: counts.modelSeeds model seeds on the base split (the training seed's effect),
 * then counts.splitSeeds - 1 more split seeds with the base model seed (the split's
 * effect); modelSeeds + splitSeeds - 1 pairs, the base pair first. Each axis's seeds are
 * seedSeries(base seed, count). Throws InputError for a count that is not an integer >= 1.
 */
export function seedAxes(base: SeedPair, counts: SeedCounts): SeedPair[] {
  const modelSeeds = seedSeries(base.modelSeed, counts.modelSeeds);
  const splitSeeds = seedSeries(base.splitSeed, counts.splitSeeds);
  return [
    ...modelSeeds.map((seed) => ({ splitSeed: String(base.splitSeed), modelSeed: seed })),
    ...splitSeeds.slice(1).map((seed) => ({ splitSeed: seed, modelSeed: String(base.modelSeed) })),
  ];
}

/** Which axis a pair of seedAxes lies on: the base pair, a varied model seed, or a varied split seed. */
export function seedAxisOf(base: SeedPair, pair: SeedPair): 'base' | 'model' | 'split' {
  const sameSplit = String(pair.splitSeed) === String(base.splitSeed);
  const sameModel = String(pair.modelSeed) === String(base.modelSeed);
  if (sameSplit && sameModel) return 'base';
  return sameSplit ? 'model' : 'split';
}

/**
 * trainModelsOverSeeds(request, presets, pairs, options) trains (or reads from the model
 * cache) the presets' models for every (split seed, model seed) pair: the dataset is loaded
 * once, each distinct split seed is split and encoded once (prepareSplit), and every model
 * not yet cached, over all pairs, trains on one pool of options.threads worker threads,
 * slowest first, so K seeds keep both threads busy. A model's cache key holds its split
 * (seed included) and its own seed, so a rerun with more seeds trains only the new ones.
 * Returns one entry per pair, in the pairs' order, each with the models in `presets` order.
 * Throws InputError for a missing dataset or a bad split setting.
 * Memory: one encoded copy of the data per distinct split seed.
 */
export async function trainModelsOverSeeds(
  request: SeedGridRequest,
  presets: readonly ModelPreset[],
  pairs: readonly SeedPair[],
  options: Omit<ModelTrainingOptions, 'seed'>,
): Promise<SeedPairModels[]> {
  const { dataset, split: splitSettings, ...loadOptions } = request;
  const table = await loadDataset(dataset, loadOptions);
  const splits = new Map<string, SplitForModels>();
  const splitFor = (seed: string | number): SplitForModels => {
    const key = String(seed);
    let prepared = splits.get(key);
    if (prepared === undefined) {
      const splitOptions: SplitOptions = { ...splitSettings, seed: key };
      const split = prepareSplit(table, splitOptions);
      prepared = { split, fingerprint: splitFingerprint(table, split, splitOptions, loadOptions) };
      splits.set(key, prepared);
    }
    return prepared;
  };
  const plans = pairs.map((pair) =>
    planModelsOnSplit(splitFor(pair.splitSeed), presets, { ...options, seed: pair.modelSeed }),
  );
  await runTrainingPlans(plans, options.threads ?? 2);
  return pairs.map((pair, k) => ({ ...pair, models: plans[k].results as TrainedModel[] }));
}

/**
 * trainFromConfigOverSeeds(config, catalogue, file, counts, options) is trainFromConfig
 * over the two axes of training variability: the config's (split seed, model seed) is the
 * base pair, seedAxes(base, counts) the pairs, and every pair's models train (or come from
 * the cache) through trainModelsOverSeeds. With counts 1/1 it returns just the base pair,
 * whose models are exactly trainFromConfig's (same cache entries). Throws InputError for
 * an unknown model name (naming file and models[i]) or a missing dataset.
 */
export async function trainFromConfigOverSeeds(
  config: ModelTrainingConfig,
  catalogue: readonly ModelPreset[],
  file: string,
  counts: SeedCounts,
  options: TrainFromConfigOptions & Pick<LoadDatasetOptions, 'manifestDirectory'> = {},
): Promise<SeedPairModels[]> {
  const presets = presetsOfConfig(config, catalogue, file);
  const { seed: splitSeed, ...splitSettings } = config.split;
  const pairs = seedAxes({ splitSeed, modelSeed: config.seed }, counts);
  const { threads, dataDirectory, manifestDirectory, ...training } = options;
  const location = {
    ...(dataDirectory === undefined ? {} : { dataDirectory }),
    ...(manifestDirectory === undefined ? {} : { manifestDirectory }),
  };
  return trainModelsOverSeeds({ dataset: config.dataset, split: splitSettings, ...location }, presets, pairs, {
    ...training,
    threads: threads ?? config.threads,
  });
}

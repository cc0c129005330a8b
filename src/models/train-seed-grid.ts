import { type LoadDatasetOptions, loadDataset } from '../data/load-dataset.js';
import { prepareSplit, type SplitOptions } from '../data/prepare-split.js';
import { inputError, isInputError } from '../util/errors.js';
import type { ModelPreset } from './model-preset.js';
import {
  type ModelTrainingOptions,
  planModelsOnSplit,
  presetsOfConfig,
  runTrainingPlans,
  type SplitForModels,
  type SplitTrainingPlan,
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

/** One request's plans over its seed pairs, and how to read its models once they are trained. */
interface SeedGridPlans {
  readonly plans: readonly SplitTrainingPlan[];
  readonly collect: () => SeedPairModels[];
}

/**
 * planModelsOverSeeds(request, presets, pairs, options) loads the dataset once, splits and
 * encodes each distinct split seed once, and plans every pair's models (cache reads), each
 * plan's progress label naming its seed pair. Throws InputError for a missing dataset or
 * a bad split setting.
 */
async function planModelsOverSeeds(
  request: SeedGridRequest,
  presets: readonly ModelPreset[],
  pairs: readonly SeedPair[],
  options: Omit<ModelTrainingOptions, 'seed'>,
): Promise<SeedGridPlans> {
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
  const plans = pairs.map((pair) => ({
    ...planModelsOnSplit(splitFor(pair.splitSeed), presets, { ...options, seed: pair.modelSeed }),
    seedLabel: pairs.length > 1 ? ` [split seed ${pair.splitSeed}, model seed ${pair.modelSeed}]` : '',
  }));
  return {
    plans,
    collect: () => pairs.map((pair, k) => ({ ...pair, models: plans[k].results as TrainedModel[] })),
  };
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
  const grid = await planModelsOverSeeds(request, presets, pairs, options);
  await runTrainingPlans(grid.plans, options.threads ?? 2);
  return grid.collect();
}

/** A training config to train over seeds with others (trainConfigsOverSeeds): the config, its catalogue, its file. */
export interface SeedGridConfig {
  readonly config: ModelTrainingConfig;
  readonly catalogue: readonly ModelPreset[];
  readonly file: string;
}

/** What trainConfigsOverSeeds gives for one config: its pairs' models, or the InputError that stopped it. */
export type SeedGridOutcome =
  | { readonly trained: true; readonly pairs: SeedPairModels[] }
  | { readonly trained: false; readonly error: Error };

/** Options of trainConfigsOverSeeds and trainFromConfigOverSeeds. */
export type SeedGridOptions = TrainFromConfigOptions & Pick<LoadDatasetOptions, 'manifestDirectory'>;

/**
 * trainConfigsOverSeeds(configs, counts, options) is trainFromConfigOverSeeds for several
 * training configs at once: every config's pairs are planned (a config whose dataset is
 * missing, or whose model names are unknown, gets its InputError as its outcome), then every
 * model not yet cached, of every config and pair, trains on ONE pool of worker threads
 * (options.threads, else the first config's threads), the presets of highest expectedCost
 * first, so no config's last model leaves a thread idle while the next config waits. Each
 * model depends only on its own split and seed, so the cache entries are those the configs
 * trained one by one would write. Returns one outcome per config, in order. Memory: one
 * encoded copy of each dataset per distinct split seed, over all configs at once.
 */
export async function trainConfigsOverSeeds(
  configs: readonly SeedGridConfig[],
  counts: SeedCounts,
  options: SeedGridOptions = {},
): Promise<SeedGridOutcome[]> {
  const { threads, dataDirectory, manifestDirectory, ...training } = options;
  const location = {
    ...(dataDirectory === undefined ? {} : { dataDirectory }),
    ...(manifestDirectory === undefined ? {} : { manifestDirectory }),
  };
  const threadCount = threads ?? configs[0]?.config.threads ?? 2;
  const grids: Array<SeedGridPlans | Error> = [];
  for (const { config, catalogue, file } of configs) {
    try {
      const presets = presetsOfConfig(config, catalogue, file);
      const { seed: splitSeed, ...splitSettings } = config.split;
      const pairs = seedAxes({ splitSeed, modelSeed: config.seed }, counts);
      const request = { dataset: config.dataset, split: splitSettings, ...location };
      grids.push(await planModelsOverSeeds(request, presets, pairs, { ...training, threads: threadCount }));
    } catch (error) {
      if (!isInputError(error)) throw error;
      grids.push(error);
    }
  }
  const plans = grids.flatMap((grid) => (grid instanceof Error ? [] : grid.plans));
  await runTrainingPlans(plans, threadCount);
  return grids.map((grid) =>
    grid instanceof Error ? { trained: false, error: grid } : { trained: true, pairs: grid.collect() },
  );
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
  options: SeedGridOptions = {},
): Promise<SeedPairModels[]> {
  const [outcome] = await trainConfigsOverSeeds([{ config, catalogue, file }], counts, {
    ...options,
    threads: options.threads ?? config.threads,
  });
  if (!outcome.trained) throw outcome.error;
  return outcome.pairs;
}

import { createHash } from 'node:crypto';
import { basename, join } from 'node:path';
import type { AuditPool } from '../audit/pool.js';
import type { DatasetTable } from '../data/dataset-table.js';
import { type LoadDatasetOptions, loadDataset } from '../data/load-dataset.js';
import { type PreparedSplit, prepareSplit, type SplitOptions } from '../data/prepare-split.js';
import { canonicalJson } from '../util/canonical-json.js';
import { inputError } from '../util/errors.js';
import { packageRoot } from '../util/paths.js';
import { deriveSeed } from '../util/random.js';
import { type CachedModel, readCachedModel, writeCachedModel } from './model-cache.js';
import type { ModelPreset } from './model-preset.js';
import { runTrainingJobs } from './run-training-jobs.js';
import type { ModelTrainingConfig } from './training-config.js';
import type { TrainingJob, TrainingStep } from './training-job.js';

/** Bump when a change to the models would change their outputs, so old cache entries are not reused. */
export const MODELS_CACHE_VERSION = 2;

/** Where trained models are cached unless told otherwise: data/cache/models/ in the package. */
export function defaultModelCacheDirectory(): string {
  return join(packageRoot(), 'data', 'cache', 'models');
}

/** A trained (or cache-read) model with its name and whether it came from the cache. */
export interface TrainedModel extends CachedModel {
  readonly name: string;
  readonly fromCache: boolean;
}

/** Options shared by the model-training functions. */
export interface ModelTrainingOptions {
  /** Called with a one-line notice: a cache entry that failed its checks and is trained again. */
  readonly onNotice?: (notice: string) => void;
  /** The models' master seed; each model's seed derives from it and the model's name. */
  readonly seed: string | number;
  /** Worker threads for training several models at once (default 2; 1 = this thread). */
  readonly threads?: number;
  /** The cache folder (default data/cache/models/). */
  readonly cacheDirectory?: string;
  /** Retrain even when the cache has the model. */
  readonly refresh?: boolean;
  /** Called when a model is ready (trained or read from the cache). */
  readonly onModelReady?: (model: TrainedModel) => void;
  /**
   * Called when a model starts training ("adult/sex/robust-dp", with " [split seed S, model
   * seed M]" in a seed grid), not for models read from the cache.
   */
  readonly onModelStart?: (model: string) => void;
  /** A training model's steps (epochs or search fits) done of total, named as onModelStart names it. */
  readonly onModelProgress?: (model: string, step: TrainingStep) => void;
  /** A model trained and written to the cache, named as onModelStart names it, with its training seconds. */
  readonly onModelTrained?: (model: string, seconds: number) => void;
}

/** A split plus what identifies it in the cache key (dataset files, split settings). */
export interface SplitForModels {
  readonly split: Pick<PreparedSplit, 'dataset' | 'protectedAttribute' | 'train' | 'heldOut' | 'auditRows'>;
  readonly fingerprint: unknown;
}

function subsetPool(pool: AuditPool, rows: Int32Array, source: string): AuditPool {
  const pick = <T extends Uint8Array | Float64Array | Int32Array>(column: T): T => {
    const out = new (column.constructor as { new (n: number): T })(rows.length);
    for (let i = 0; i < rows.length; i++) out[i] = column[rows[i]];
    return out;
  };
  return {
    size: rows.length,
    group: pick(pool.group),
    label: pick(pool.label),
    decision: pick(pool.decision),
    score: pool.score === null ? null : pick(pool.score),
    logit: pool.logit === null ? null : pick(pool.logit),
    id: pool.id === null ? null : pick(pool.id),
    source,
  };
}

/** A model of one split that is not in the cache yet: where its result goes and how to train it. */
interface PendingModel {
  readonly index: number;
  readonly name: string;
  readonly cost: number;
  readonly directory: string;
  readonly job: TrainingJob;
}

/** One split's models: those read from the cache (filled in) and those still to train. */
export interface SplitTrainingPlan {
  readonly prepared: SplitForModels;
  readonly results: Array<TrainedModel | undefined>;
  readonly pending: readonly PendingModel[];
  readonly onModelReady?: (model: TrainedModel) => void;
  readonly onModelStart?: (model: string) => void;
  readonly onModelProgress?: (model: string, step: TrainingStep) => void;
  readonly onModelTrained?: (model: string, seconds: number) => void;
  /** What names the plan's models in progress besides dataset/attribute/model: its seed pair in a grid, else "". */
  readonly seedLabel: string;
}

/**
 * planModelsOnSplit(prepared, presets, options) looks each preset's model up in the cache
 * (key: MODELS_CACHE_VERSION, the split's fingerprint, the model's spec, its seed
 * deriveSeed(options.seed, name)) and returns the plan: the cached models (already
 * reported to onModelReady) and the training jobs of the others. O(presets) cache reads.
 */
export function planModelsOnSplit(
  prepared: SplitForModels,
  presets: readonly ModelPreset[],
  options: ModelTrainingOptions,
): SplitTrainingPlan {
  const { split } = prepared;
  const cacheDirectory = options.cacheDirectory ?? defaultModelCacheDirectory();
  const results: Array<TrainedModel | undefined> = [];
  const pending: PendingModel[] = [];
  presets.forEach((preset, index) => {
    const { spec } = preset;
    const name = spec.name;
    const seed = deriveSeed(String(options.seed), name);
    const key = createHash('sha256')
      .update(canonicalJson({ version: MODELS_CACHE_VERSION, split: prepared.fingerprint, spec, seed }))
      .digest('hex')
      .slice(0, 16);
    const directory = join(cacheDirectory, `${split.dataset}-${split.protectedAttribute}-${name}-${key}`);
    const cached = options.refresh ? null : readCachedModel(directory, options.onNotice);
    if (cached !== null) {
      const model: TrainedModel = { ...cached, name, fromCache: true };
      results[index] = model;
      options.onModelReady?.(model);
      return;
    }
    const common = { dataset: split.dataset, train: split.train, heldOut: split.heldOut, seed };
    const job: TrainingJob =
      preset.type === 'boosted-trees'
        ? { kind: 'boosted-trees', spec: preset.spec, threads: 1, ...common }
        : { kind: 'mlp', spec: preset.spec, ...common };
    pending.push({ index, name, cost: preset.expectedCost ?? 1, directory, job });
  });
  return {
    prepared,
    results,
    pending,
    onModelReady: options.onModelReady,
    onModelStart: options.onModelStart,
    onModelProgress: options.onModelProgress,
    onModelTrained: options.onModelTrained,
    seedLabel: '',
  };
}

/**
 * runTrainingPlans(plans, threads) trains every pending model of every plan on one pool
 * of `threads` worker threads (the presets of highest expectedCost first), writes each to
 * the cache (pool.arrow, audit-pool.arrow for paper B's audit set, card.json) and fills
 * the plans' results. A lone boosted-trees job spreads its cross-validation fits over the
 * threads instead. Each model's result depends only on its own seed and split.
 */
export async function runTrainingPlans(plans: readonly SplitTrainingPlan[], threads: number): Promise<void> {
  const queue = plans.flatMap((plan) => plan.pending.map((entry) => ({ plan, entry })));
  queue.sort((a, b) => b.entry.cost - a.entry.cost);
  const jobs = queue.map(({ entry }) =>
    entry.job.kind === 'boosted-trees' && queue.length === 1 ? { ...entry.job, threads } : entry.job,
  );
  await runTrainingJobs(
    jobs,
    threads,
    (k, scored) => {
      const { plan, entry } = queue[k];
      const { split } = plan.prepared;
      const auditPool =
        split.auditRows === null ? null : subsetPool(scored.pool, split.auditRows, `${scored.pool.source}/audit`);
      const card = { ...scored.card, cacheKey: basename(entry.directory), split: plan.prepared.fingerprint };
      const stored = writeCachedModel(entry.directory, scored.pool, auditPool, card);
      const model: TrainedModel = { ...stored, name: entry.name, fromCache: false };
      plan.results[entry.index] = model;
      plan.onModelTrained?.(modelLabel(queue[k]), scored.card.trainingSeconds);
      plan.onModelReady?.(model);
    },
    progressOf(queue),
  );
}

/** How progress names a queued model: dataset/attribute/model, then the plan's seed label. */
function modelLabel({ plan, entry }: { plan: SplitTrainingPlan; entry: PendingModel }): string {
  const { dataset, protectedAttribute } = plan.prepared.split;
  return `${dataset}/${protectedAttribute}/${entry.name}${plan.seedLabel}`;
}

/** The progress callbacks of runTrainingJobs, named by each job's dataset and model. */
function progressOf(queue: ReadonlyArray<{ plan: SplitTrainingPlan; entry: PendingModel }>) {
  return {
    onStart: (k: number) => queue[k].plan.onModelStart?.(modelLabel(queue[k])),
    onProgress: (k: number, step: TrainingStep) => queue[k].plan.onModelProgress?.(modelLabel(queue[k]), step),
  };
}

/**
 * trainModelsOnSplit(prepared, presets, options) returns each model trained on
 * prepared.split.train and scored on prepared.split.heldOut, reading it from the cache
 * when an entry with the same key exists (key: MODELS_CACHE_VERSION, the split's
 * fingerprint, the model's spec, its seed) and otherwise training it (several at once
 * on worker threads, the presets of highest expectedCost first) and writing pool.arrow
 * (+ audit-pool.arrow for paper B's audit set) and card.json under
 * <cache>/<dataset>-<attribute>-<model>-<key>/.
 */
export async function trainModelsOnSplit(
  prepared: SplitForModels,
  presets: readonly ModelPreset[],
  options: ModelTrainingOptions,
): Promise<TrainedModel[]> {
  const plan = planModelsOnSplit(prepared, presets, options);
  await runTrainingPlans([plan], options.threads ?? 2);
  return plan.results as TrainedModel[];
}

/**
 * splitFingerprint(table, split, splitOptions, loadOptions) is what identifies a split in
 * the model cache key: the dataset's files (sizes, sha256), the loading options and the
 * split's settings, its seed included. O(files).
 */
export function splitFingerprint(
  table: DatasetTable,
  split: PreparedSplit,
  splitOptions: SplitOptions,
  loadOptions: LoadDatasetOptions,
): Record<string, unknown> {
  return {
    dataset: table.name,
    form: table.form,
    files: table.files.map((file) => ({ size: file.size, sha256: file.sha256 })),
    dropMissing: loadOptions.dropMissing ?? true,
    scheme: split.scheme,
    seed: split.seed,
    protectedAttribute: split.protectedAttribute,
    heldOutFraction: split.heldOutFraction,
    auditFraction: split.auditFraction,
    stratifyBy: split.stratifyBy,
    droppedColumns: split.droppedColumns,
    standardize: splitOptions.standardize ?? true,
  };
}

/** What identifies a dataset and split for the model cache. */
export interface DatasetRequest extends LoadDatasetOptions {
  readonly dataset: string;
  readonly split: SplitOptions;
}

/**
 * trainModels(request, presets, options) loads a dataset (loadDataset: mirror or
 * downloads, checksums verified), splits and encodes it (prepareSplit), then trains
 * or reads from the cache each named model (trainModelsOnSplit). The cache key
 * includes the dataset files' sha256, the split settings and each model's spec and
 * seed. Throws InputError for a missing or malformed dataset or an unknown model.
 */
export async function trainModels(
  request: DatasetRequest,
  presets: readonly ModelPreset[],
  options: ModelTrainingOptions,
): Promise<TrainedModel[]> {
  const { dataset, split: splitOptions, ...loadOptions } = request;
  const table = await loadDataset(dataset, loadOptions);
  const split = prepareSplit(table, splitOptions);
  const fingerprint = splitFingerprint(table, split, splitOptions, loadOptions);
  return trainModelsOnSplit({ split, fingerprint }, presets, options);
}

/**
 * presetsOfConfig(config, catalogue, file) resolves the names a training config lists
 * (`models:`) to presets of the catalogue. Throws InputError naming the file and the
 * entry (models[i]) when a name is unknown.
 */
export function presetsOfConfig(
  config: ModelTrainingConfig,
  catalogue: readonly ModelPreset[],
  file: string,
): ModelPreset[] {
  return config.models.map((name, index) => {
    const preset = catalogue.find((entry) => entry.spec.name === name);
    if (preset === undefined) {
      throw inputError({
        where: `${file}: models[${index}]`,
        expected: `one of ${catalogue.map((entry) => entry.spec.name).join(', ')}`,
        found: name,
      });
    }
    return preset;
  });
}

/** Options of trainFromConfig: those of trainModels but the seed (the config's), and where to read the data. */
export interface TrainFromConfigOptions extends Omit<ModelTrainingOptions, 'seed' | 'threads'> {
  /** Worker threads (default: the config's threads). */
  readonly threads?: number;
  /** A local dataset mirror (else FAIRAUDIT_DATA_DIR, else data/downloads/). */
  readonly dataDirectory?: string;
}

/**
 * trainFromConfig(config, catalogue, file, options) trains (or reads from the cache)
 * the models a training config names: `fairaudit models train CONFIG` and the
 * reproductions (with their papers' configs) both call it, so a config warms exactly
 * the cache entries its reproduction reads. Throws InputError for an unknown model
 * name or a missing dataset.
 */
export function trainFromConfig(
  config: ModelTrainingConfig,
  catalogue: readonly ModelPreset[],
  file: string,
  options: TrainFromConfigOptions = {},
): Promise<TrainedModel[]> {
  const presets = presetsOfConfig(config, catalogue, file);
  const { threads, dataDirectory, ...training } = options;
  return trainModels(
    { dataset: config.dataset, split: config.split, ...(dataDirectory === undefined ? {} : { dataDirectory }) },
    presets,
    {
      ...training,
      seed: config.seed,
      threads: threads ?? config.threads,
    },
  );
}

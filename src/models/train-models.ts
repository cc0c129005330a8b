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
import { type BoostedTreesSpec, PAPER_B_BOOSTED_TREES } from './boosted-trees.js';
import { type CachedModel, readCachedModel, writeCachedModel } from './model-cache.js';
import { PAPER_A_MODEL_NAMES, PAPER_A_MODEL_SPECS, type PaperAModelName, type PaperAModelSpec } from './paper-a-models.js';
import { runTrainingJobs } from './run-training-jobs.js';
import type { TrainingJob } from './training-job.js';

/** Bump when a change to the models would change their outputs, so old cache entries are not reused. */
export const MODELS_CACHE_VERSION = 2;

/** Every model `fairaudit models train` knows: paper A's four MLPs and paper B's boosted trees. */
export const MODEL_NAMES = [...PAPER_A_MODEL_NAMES, 'boosted-trees'] as const;
export type ModelName = (typeof MODEL_NAMES)[number];

/** Where trained models are cached unless told otherwise: data/cache/models/ in the package. */
export function defaultModelCacheDirectory(): string {
  return join(packageRoot(), 'data', 'cache', 'models');
}

/** A trained (or cache-read) model with its name and whether it came from the cache. */
export interface TrainedModel extends CachedModel {
  readonly name: ModelName;
  readonly fromCache: boolean;
}

/** Options shared by the model-training functions. */
export interface ModelTrainingOptions {
  /** The models' master seed; each model's seed derives from it and the model's name. */
  readonly seed: string | number;
  /** Worker threads for training several models at once (default 2; 1 = this thread). */
  readonly threads?: number;
  /** The cache folder (default data/cache/models/). */
  readonly cacheDirectory?: string;
  /** Retrain even when the cache has the model. */
  readonly refresh?: boolean;
  /** Replace a model's published settings (e.g. fewer epochs for a quick test); part of the cache key. */
  readonly specs?: Partial<Record<PaperAModelName, PaperAModelSpec>> & { 'boosted-trees'?: BoostedTreesSpec };
  /** Called when a model is ready (trained or read from the cache). */
  readonly onModelReady?: (model: TrainedModel) => void;
}

/** A split plus what identifies it in the cache key (dataset files, split settings). */
export interface SplitForModels {
  readonly split: Pick<PreparedSplit, 'dataset' | 'protectedAttribute' | 'train' | 'heldOut' | 'auditRows'>;
  readonly fingerprint: unknown;
}

function specOf(name: ModelName, options: ModelTrainingOptions): PaperAModelSpec | BoostedTreesSpec {
  if (name === 'boosted-trees') return options.specs?.['boosted-trees'] ?? PAPER_B_BOOSTED_TREES;
  return options.specs?.[name] ?? PAPER_A_MODEL_SPECS[name];
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

/** Rough relative cost, to start the slowest jobs first. */
const EXPECTED_COST: Record<ModelName, number> = {
  'robust-dp': 10,
  'boosted-trees': 5,
  'robust-base': 1,
  'unstable-dp': 0.2,
  'unstable-base': 0.1,
};

/** A model of one split that is not in the cache yet: where its result goes and how to train it. */
interface PendingModel {
  readonly index: number;
  readonly name: ModelName;
  readonly directory: string;
  readonly job: TrainingJob;
}

/** One split's models: those read from the cache (filled in) and those still to train. */
export interface SplitTrainingPlan {
  readonly prepared: SplitForModels;
  readonly results: Array<TrainedModel | undefined>;
  readonly pending: readonly PendingModel[];
  readonly onModelReady?: (model: TrainedModel) => void;
}

/**
 * planModelsOnSplit(prepared, models, options) looks each named model up in the cache
 * (key: MODELS_CACHE_VERSION, the split's fingerprint, the model's spec, its seed
 * deriveSeed(options.seed, name)) and returns the plan: the cached models (already
 * reported to onModelReady) and the training jobs of the others. O(models) cache reads.
 * Throws InputError for an unknown model name.
 */
export function planModelsOnSplit(
  prepared: SplitForModels,
  models: readonly string[],
  options: ModelTrainingOptions,
): SplitTrainingPlan {
  const { split } = prepared;
  const cacheDirectory = options.cacheDirectory ?? defaultModelCacheDirectory();
  const results: Array<TrainedModel | undefined> = [];
  const pending: PendingModel[] = [];
  models.forEach((rawName, index) => {
    if (!(MODEL_NAMES as readonly string[]).includes(rawName)) {
      throw inputError({ where: `models[${index}]`, expected: `one of ${MODEL_NAMES.join(', ')}`, found: rawName });
    }
    const name = rawName as ModelName;
    const spec = specOf(name, options);
    const seed = deriveSeed(String(options.seed), name);
    const key = createHash('sha256')
      .update(canonicalJson({ version: MODELS_CACHE_VERSION, split: prepared.fingerprint, spec, seed }))
      .digest('hex')
      .slice(0, 16);
    const directory = join(cacheDirectory, `${split.dataset}-${split.protectedAttribute}-${name}-${key}`);
    const cached = options.refresh ? null : readCachedModel(directory);
    if (cached !== null) {
      const model: TrainedModel = { ...cached, name, fromCache: true };
      results[index] = model;
      options.onModelReady?.(model);
      return;
    }
    const common = { dataset: split.dataset, train: split.train, heldOut: split.heldOut, seed };
    const job: TrainingJob =
      name === 'boosted-trees'
        ? { kind: 'boosted-trees', spec: spec as BoostedTreesSpec, threads: 1, ...common }
        : { kind: 'paper-a', spec: spec as PaperAModelSpec, ...common };
    pending.push({ index, name, directory, job });
  });
  return { prepared, results, pending, onModelReady: options.onModelReady };
}

/**
 * runTrainingPlans(plans, threads) trains every pending model of every plan on one pool
 * of `threads` worker threads (the slowest kinds first), writes each to the cache
 * (pool.arrow, audit-pool.arrow for paper B's audit set, card.json) and fills the
 * plans' results. A lone boosted-trees job spreads its cross-validation fits over the
 * threads instead. Each model's result depends only on its own seed and split.
 */
export async function runTrainingPlans(plans: readonly SplitTrainingPlan[], threads: number): Promise<void> {
  const queue = plans.flatMap((plan) => plan.pending.map((entry) => ({ plan, entry })));
  queue.sort((a, b) => EXPECTED_COST[b.entry.name] - EXPECTED_COST[a.entry.name]);
  const jobs = queue.map(({ entry }) =>
    entry.job.kind === 'boosted-trees' && queue.length === 1 ? { ...entry.job, threads } : entry.job,
  );
  await runTrainingJobs(jobs, threads, (k, scored) => {
    const { plan, entry } = queue[k];
    const { split } = plan.prepared;
    const auditPool =
      split.auditRows === null ? null : subsetPool(scored.pool, split.auditRows, `${scored.pool.source}/audit`);
    const card = { ...scored.card, cacheKey: basename(entry.directory), split: plan.prepared.fingerprint };
    const stored = writeCachedModel(entry.directory, scored.pool, auditPool, card);
    const model: TrainedModel = { ...stored, name: entry.name, fromCache: false };
    plan.results[entry.index] = model;
    plan.onModelReady?.(model);
  });
}

/**
 * trainModelsOnSplit(prepared, models, options) returns each named model trained on
 * prepared.split.train and scored on prepared.split.heldOut, reading it from the cache
 * when an entry with the same key exists (key: MODELS_CACHE_VERSION, the split's
 * fingerprint, the model's spec, its seed) and otherwise training it (several at once
 * on worker threads) and writing pool.arrow (+ audit-pool.arrow for paper B's audit
 * set) and card.json under <cache>/<dataset>-<model>-<key>/.
 * Throws InputError for an unknown model name.
 */
export async function trainModelsOnSplit(
  prepared: SplitForModels,
  models: readonly string[],
  options: ModelTrainingOptions,
): Promise<TrainedModel[]> {
  const plan = planModelsOnSplit(prepared, models, options);
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
 * trainModels(request, models, options) loads a dataset (loadDataset: mirror or
 * downloads, checksums verified), splits and encodes it (prepareSplit), then trains
 * or reads from the cache each named model (trainModelsOnSplit). The cache key
 * includes the dataset files' sha256, the split settings and each model's spec and
 * seed. Throws InputError for a missing or malformed dataset or an unknown model.
 */
export async function trainModels(
  request: DatasetRequest,
  models: readonly string[],
  options: ModelTrainingOptions,
): Promise<TrainedModel[]> {
  const { dataset, split: splitOptions, ...loadOptions } = request;
  const table = await loadDataset(dataset, loadOptions);
  const split = prepareSplit(table, splitOptions);
  const fingerprint = splitFingerprint(table, split, splitOptions, loadOptions);
  return trainModelsOnSplit({ split, fingerprint }, models, options);
}

/**
 * trainPaperAModels(dataset, splitSeed, options) trains (or reads from the cache) paper
 * A's Robust-Base, Unstable-Base, Robust-DP and Unstable-DP on `dataset` ("adult",
 * "acs-income") with paper A's 70/30 split seeded by splitSeed, returning their audit
 * pools (the test part) and cards.
 */
export function trainPaperAModels(
  dataset: string,
  splitSeed: string | number,
  options: ModelTrainingOptions & LoadDatasetOptions & { protectedAttribute?: string },
): Promise<TrainedModel[]> {
  const { protectedAttribute, ...rest } = options;
  return trainModels(
    { ...rest, dataset, split: { scheme: 'paper-a', seed: splitSeed, protectedAttribute } },
    PAPER_A_MODEL_NAMES,
    rest,
  );
}

/**
 * trainBoostedTrees(dataset, protectedAttribute, splitSeed, options) trains (or reads
 * from the cache) paper B's tuned boosted trees on `dataset` ("ccd", "compas") with
 * paper B's split for that protected attribute: trained on the rest, scored on the
 * candidate set (pool) and its audit set (auditPool).
 */
export async function trainBoostedTrees(
  dataset: string,
  protectedAttribute: string,
  splitSeed: string | number,
  options: ModelTrainingOptions & LoadDatasetOptions,
): Promise<TrainedModel> {
  const [model] = await trainModels(
    { ...options, dataset, split: { scheme: 'paper-b', seed: splitSeed, protectedAttribute } },
    ['boosted-trees'],
    options,
  );
  return model;
}

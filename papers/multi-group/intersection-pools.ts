import { GroupCoder } from '../../src/audit/group-coder.js';
import type { AuditPool } from '../../src/audit/pool.js';
import type { DatasetTable } from '../../src/data/dataset-table.js';
import { loadDataset } from '../../src/data/load-dataset.js';
import type { ModelPreset } from '../../src/models/model-preset.js';
import { type TrainedModel, trainFromConfig } from '../../src/models/train-models.js';
import { loadModelTrainingConfig } from '../../src/models/training-config.js';

/**
 * Where a dataset's models come from: the paper's own training config and model presets
 * (handed in by the composition root, src/cli/registry.ts, so this reproduction reads
 * paper A's and paper B's presets without importing across papers), and the attributes
 * whose combinations are the groups.
 */
export interface ModelSource {
  readonly dataset: 'adult' | 'compas';
  readonly config: string;
  readonly presets: readonly ModelPreset[];
  readonly attributes: readonly string[];
}

/** One audited model's pool with multi-valued groups: which dataset, model and attributes, and the pools. */
export interface IntersectionPool {
  /** "adult/robust-base (race × sex)". */
  readonly label: string;
  /** File-safe id: "adult-robust-base". */
  readonly id: string;
  readonly dataset: 'adult' | 'compas';
  readonly model: string;
  readonly attributes: readonly string[];
  /** The model's audit pool (paper A: the test part; paper B: the candidate set C), grouped by the attributes. */
  readonly pool: AuditPool;
  /** Paper B: the audit set S's rows, grouped the same way; null for paper A's models. */
  readonly auditSet: AuditPool | null;
  /** Whether the model was read from the cache. */
  readonly cached: boolean;
}

/** The text of a raw column's value at a table row (a categorical level, or a number). */
function cellOf(table: DatasetTable, column: string, row: number): string {
  const found = table.columns.find((each) => each.name === column);
  if (found === undefined) throw new Error(`intersectionPools: ${table.name} has no column ${column}`);
  return found.kind === 'categorical' ? found.levels[found.codes[row]] : String(found.values[row]);
}

/**
 * regroup(pool, table, attributes) is the model's pool with its groups replaced by the
 * combinations of the dataset's attribute columns (one attribute: its values), named and
 * sorted by GroupCoder as a pool file's `groups` would be. Rows are joined on the pool's
 * id, the row's index in the raw file. O(rows).
 */
export function regroup(pool: AuditPool, table: DatasetTable, attributes: readonly string[]): AuditPool {
  if (pool.id === null) throw new Error(`regroup: ${pool.source} has no id column to join on`);
  const tableRow = new Map<number, number>();
  for (let row = 0; row < table.rowIndex.length; row++) tableRow.set(table.rowIndex[row], row);
  const group = new Uint8Array(pool.size);
  const coder = new GroupCoder(group, attributes, true);
  for (let row = 0; row < pool.size; row++) {
    const at = tableRow.get(pool.id[row]);
    if (at === undefined) throw new Error(`regroup: row id ${pool.id[row]} is not in ${table.name}`);
    coder.add(
      row,
      attributes.map((attribute) => cellOf(table, attribute, at)),
      () => `${table.name}: row ${at}`,
    );
  }
  const groupNames = coder.finish(pool.size) as string[];
  return { ...pool, group, groupNames, source: `${pool.source} grouped by ${attributes.join(' × ')}` };
}

/** Options of intersectionPools. */
export interface IntersectionPoolsOptions {
  readonly dataDirectory?: string;
  readonly cacheDirectory?: string;
  readonly refresh?: boolean;
  readonly threads?: number;
  readonly onStage?: (stage: string) => void;
}

/**
 * intersectionPools(sources, options) trains, or reads from the model cache, the papers' own
 * models with the papers' own presets (the composition root passes paper A's four MLPs on Adult,
 * papers/paper-a/configs/models/adult.yaml; paper B's boosted trees on COMPAS race,
 * papers/paper-b/configs/models/compas-race.yaml), and regroups their pools: Adult by race
 * × sex (10 groups), COMPAS by race (its 6 values). Throws InputError when a dataset is
 * missing. Running time: reading 5 cached models and 2 datasets (seconds), or training.
 * @param sources each dataset's training config, presets and group attributes
 * @param options data mirror, model cache, threads and a progress callback
 * @returns the five pools
 * @example const pools = await intersectionPools(sources, { dataDirectory: '/data' });
 */
export async function intersectionPools(
  sources: readonly ModelSource[],
  options: IntersectionPoolsOptions = {},
): Promise<IntersectionPool[]> {
  const common = {
    dataDirectory: options.dataDirectory,
    cacheDirectory: options.cacheDirectory,
    refresh: options.refresh ?? false,
    threads: options.threads,
  };
  const pools: IntersectionPool[] = [];
  for (const setting of sources) {
    options.onStage?.(`multi-group: ${setting.dataset} models (trained, or read from the cache)`);
    const models: TrainedModel[] = await trainFromConfig(
      loadModelTrainingConfig(setting.config),
      setting.presets,
      setting.config,
      common,
    );
    const table = await loadDataset(setting.dataset, { dataDirectory: options.dataDirectory });
    const { attributes } = setting;
    for (const model of models) {
      pools.push({
        label: `${setting.dataset}/${model.name} (${attributes.join(' × ')})`,
        id: `${setting.dataset}-${model.name}`,
        dataset: setting.dataset,
        model: model.name,
        attributes,
        pool: regroup(model.pool, table, attributes),
        auditSet: model.auditPool === null ? null : regroup(model.auditPool, table, attributes),
        cached: model.fromCache,
      });
    }
  }
  return pools;
}

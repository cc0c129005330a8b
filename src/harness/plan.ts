import { createHash } from 'node:crypto';
import { InputError } from '../util/errors.js';
import { deriveSeed } from '../util/random.js';
import { canonicalJson } from '../util/canonical-json.js';
import type { ExperimentConfig } from './config.js';
import type { ColumnType, ColumnValue, KindRunner } from './kind-runner.js';
import { schemaAt } from '../util/schema.js';

/** A result column that records a setting varied by the grid. */
export interface GridColumn {
  /** The setting key, dotted (pool.synthetic.size). */
  key: string;
  /** The column name: the key with "." replaced by "_" (prefixed "setting_" if it would clash). */
  column: string;
  type: ColumnType;
  /** A setting the kind records whenever a cell sets it (KindRunner.recordedSettings), not a grid axis. */
  recorded?: true;
}

/** A cell of the plan: one combination of the grid, with its canonical key. */
export interface PlanCell {
  index: number;
  /**
   * canonicalJson of the coordinates, object values (pools) replaced by their label:
   * independent of the order of keys in the YAML, short, and unique in the plan.
   */
  key: string;
  coordinates: Record<string, unknown>;
  /** The value of each grid column for this cell. */
  columns: Record<string, ColumnValue>;
  settings: Record<string, unknown>;
}

/** A run of consecutive replicates of one cell: the unit sent to a worker, checkpointed and dealt to shards. */
export interface PlanChunk {
  index: number;
  cell: number;
  firstReplicate: number;
  count: number;
}

/** The plan of an experiment: cells × replicates, cut into chunks. */
export interface Plan {
  experiment: string;
  kind: string;
  seed: string;
  replicates: number;
  chunkSize: number;
  gridColumns: GridColumn[];
  cells: PlanCell[];
  chunks: PlanChunk[];
  /** Total replicates (tasks) in the plan. */
  tasks: number;
  /** sha256 of everything that determines the results; shards and resumes must agree on it. */
  fingerprint: string;
}

/** A share of the plan: shard `index` of `count` (1-based) takes chunks index−1, index−1+count, ... */
export interface Shard {
  index: number;
  count: number;
}

const FIXED_COLUMNS = ['experiment', 'kind', 'cell', 'replicate', 'seed'];

function columnTypeOf(kind: KindRunner, key: string): ColumnType {
  const setting = schemaAt(kind.settings, key.split('.'));
  if (setting?.type === 'number') return setting.integer ? 'int32' : 'float64';
  if (setting?.type === 'boolean') return 'bool';
  return 'utf8';
}

function columnValue(kind: KindRunner, column: GridColumn, value: unknown): ColumnValue {
  // A grid value null leaves an optional setting absent; a number column records it as NaN.
  if (column.type === 'float64' && (value === null || value === undefined)) return Number.NaN;
  if (column.type !== 'utf8') return value as ColumnValue;
  if (typeof value === 'string') return value;
  return kind.labelOf?.(column.key, value) ?? canonicalJson(value);
}

/**
 * buildPlan(config, kind) expands a validated config into its plan: cells in grid
 * order, each with a canonical key (canonicalJson of its coordinates), and chunks of
 * at most chunkSize consecutive replicates of one cell. Grid columns with object
 * values are labelled by kind.labelOf (e.g. a pool's name) or their canonical JSON;
 * two values of one axis with the same label are an InputError. O(cells + chunks).
 */
export function buildPlan(config: ExperimentConfig, kind: KindRunner): Plan {
  const reserved = new Set([...FIXED_COLUMNS, ...kind.outcomeColumns.map((c) => c.name)]);
  const columnOf = (key: string): GridColumn => {
    const plain = key.replaceAll('.', '_');
    return { key, column: reserved.has(plain) ? `setting_${plain}` : plain, type: columnTypeOf(kind, key) };
  };
  const gridColumns: GridColumn[] = config.grid.map((axis) => columnOf(axis.key));
  // Settings the kind records whenever a cell sets them (not coordinates: they leave the cell keys alone).
  const recorded = (kind.recordedSettings ?? []).filter(
    (key) => !config.grid.some((axis) => axis.key === key) && config.cells.some((cell) => cell.settings[key] !== undefined),
  );
  const recordedColumns = recorded.map((key): GridColumn => ({ ...columnOf(key), recorded: true }));
  for (const [a, axis] of config.grid.entries()) {
    const labels = new Map<string, number>();
    axis.values.forEach((value, index) => {
      const label = String(columnValue(kind, gridColumns[a], value));
      const earlier = labels.get(label);
      if (earlier !== undefined) {
        throw new InputError(
          `${config.file}: grid.${axis.key}[${index}]: expected a label different from item ${earlier}'s (give each a distinct name), found ${JSON.stringify(label)} twice`,
        );
      }
      labels.set(label, index);
    });
  }
  const cells: PlanCell[] = config.cells.map((cell, index) => {
    const columns: Record<string, ColumnValue> = {};
    for (const column of gridColumns) columns[column.column] = columnValue(kind, column, cell.coordinates[column.key]);
    const labelled = Object.fromEntries(gridColumns.map((column) => [column.key, cell.coordinates[column.key] === null ? null : columns[column.column]]));
    for (const column of recordedColumns) columns[column.column] = columnValue(kind, column, cell.settings[column.key] ?? '');
    return { index, key: canonicalJson(labelled), coordinates: cell.coordinates, columns, settings: cell.settings };
  });
  const chunks = planChunks(cells.length, config.replicates, config.chunkSize);
  const fingerprint = createHash('sha256')
    .update(
      canonicalJson({
        experiment: config.experiment,
        kind: config.kind,
        seed: config.seed,
        replicates: config.replicates,
        chunkSize: config.chunkSize,
        cells: cells.map((cell) => ({ key: cell.key, settings: cell.settings })),
      }),
    )
    .digest('hex');
  return {
    experiment: config.experiment,
    kind: config.kind,
    seed: config.seed,
    replicates: config.replicates,
    chunkSize: config.chunkSize,
    gridColumns: [...gridColumns, ...recordedColumns],
    cells,
    chunks,
    tasks: cells.length * config.replicates,
    fingerprint,
  };
}

/** planChunks(cells, replicates, chunkSize): runs of at most chunkSize consecutive replicates of one cell, cells in order. */
export function planChunks(cells: number, replicates: number, chunkSize: number): PlanChunk[] {
  const chunks: PlanChunk[] = [];
  for (let cell = 0; cell < cells; cell++) {
    for (let first = 0; first < replicates; first += chunkSize) {
      chunks.push({ index: chunks.length, cell, firstReplicate: first, count: Math.min(chunkSize, replicates - first) });
    }
  }
  return chunks;
}

/** replicateSeed(plan, cell, replicate) = deriveSeed(master seed, cell key, replicate index). */
export function replicateSeed(seed: string, cellKey: string, replicate: number): string {
  return deriveSeed(seed, cellKey, replicate);
}

/** parseShard("2/4") reads a --shard flag: shard 2 of 4 (1-based). Throws InputError. */
export function parseShard(text: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = match ? Number(match[1]) : Number.NaN;
  const count = match ? Number(match[2]) : Number.NaN;
  if (!match || count < 1 || index < 1 || index > count) {
    throw new InputError(`--shard: expected i/n with 1 ≤ i ≤ n (e.g. --shard 2/4), found ${JSON.stringify(text)}`);
  }
  return { index, count };
}

/** The chunks of a shard (all chunks when shard is undefined), in plan order. */
export function chunksOfShard(plan: Plan, shard: Shard | undefined): PlanChunk[] {
  if (!shard) return plan.chunks;
  return plan.chunks.filter((chunk) => chunk.index % shard.count === shard.index - 1);
}

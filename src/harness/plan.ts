import { createHash } from 'node:crypto';
import { canonicalJson } from '../util/canonical-json.js';
import { InputError } from '../util/errors.js';
import { schemaAt } from '../util/schema.js';
import { EAGER_CELL_LIMIT, type ExperimentConfig } from './config.js';
import type { ColumnType, ColumnValue, KindRunner } from './kind-runner.js';

export { replicateSeed } from './replicate-seed.js';

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

/**
 * The plan of an experiment: cells × replicates, cut into chunks. Cells and chunks are
 * made on demand from the grid (cellAt, chunkAt), so a plan of 10^8 replicates or of a
 * 96-million-cell grid takes O(grid axes) memory.
 */
export interface Plan {
  experiment: string;
  kind: string;
  seed: string;
  replicates: number;
  chunkSize: number;
  gridColumns: GridColumn[];
  /** Cells in the plan: the product of the grid axes' lengths. */
  cellCount: number;
  /** Chunks per cell: ⌈replicates / chunkSize⌉. */
  chunksPerCell: number;
  /** Chunks in the plan: cellCount × chunksPerCell. */
  chunkCount: number;
  /** Total replicates (tasks) in the plan. */
  tasks: number;
  /** sha256 of everything that determines the results (format 2, see planFingerprint); shards and resumes must agree on
   * it. */
  fingerprint: string;
  /** cellAt(index): cell `index` with its key, grid columns and full settings. O(axes + settings). */
  cellAt(index: number): PlanCell;
  /** chunkAt(index): chunk `index` (cells in order, then replicates). O(1). */
  chunkAt(index: number): PlanChunk;
  /** Every cell, made on first use: O(cells); for code that knows the grid is small. */
  readonly cells: PlanCell[];
  /** Every chunk, made on first use: O(chunks); for code that knows the plan is small. */
  readonly chunks: PlanChunk[];
}

/** What shard arithmetic needs of a plan (a Plan, or the plan run.json records). */
export type PlanShape = Pick<
  Plan,
  'replicates' | 'chunkSize' | 'cellCount' | 'chunksPerCell' | 'chunkCount' | 'tasks' | 'chunkAt'
>;

/** A share of the plan: shard `index` of `count` (1-based) takes chunks index−1, index−1+count, ... */
export interface Shard {
  index: number;
  count: number;
}

/** The most chunks a plan may have: chunk indices are 32-bit unsigned in checkpoint files. */
export const MAX_PLAN_CHUNKS = 0xffff_ffff;

/** The version of the plan fingerprint (planFingerprint); checkpoints and run.json record plans by it. */
export const PLAN_FINGERPRINT_FORMAT = 'fairaudit-plan/2';

const FIXED_COLUMNS = ['experiment', 'kind', 'cell', 'replicate', 'seed'];

/** How many recently made plan cells a plan keeps (a run reads them in order, chunk after chunk). */
const CELL_CACHE_SIZE = 256;

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

/** The value at a dotted key path of validated settings. */
function valueAt(settings: Record<string, unknown>, key: string): unknown {
  let current: unknown = settings;
  for (const part of key.split('.')) current = (current as Record<string, unknown> | undefined)?.[part];
  return current;
}

/**
 * planFingerprint(config, labels) is the plan's fingerprint, format 2: the SHA-256 of
 * the canonical JSON of the format name, experiment, kind, master seed, replicates,
 * chunk size, the full settings of the first cell (defaults filled), and per grid axis
 * (sorted by key) its key, each value's label and each value as validated (defaults
 * filled, read from the cell that differs from the first only in that axis). Every
 * cell's key and full settings follow from these, so equal fingerprints mean equal
 * plans; unlike format 1 (a hash over every cell's settings, until December 2026) it
 * takes O(sum of the axes' lengths), not O(cells).
 */
function planFingerprint(config: ExperimentConfig, labels: readonly string[][]): string {
  let stride = config.cellCount;
  const axes = config.grid.map((axis, a) => {
    stride /= axis.values.length;
    const step = stride;
    return {
      key: axis.key,
      labels: labels[a],
      // A linked axis (grid.zip) gives each value's settings under their keys; a plain axis is as in format 2.
      values: axis.values.map((_, i) =>
        axis.linked === undefined
          ? valueAt(config.cellAt(i * step).settings, axis.key)
          : Object.fromEntries(axis.linked.map((key) => [key, valueAt(config.cellAt(i * step).settings, key)])),
      ),
    };
  });
  return createHash('sha256')
    .update(
      canonicalJson({
        format: PLAN_FINGERPRINT_FORMAT,
        experiment: config.experiment,
        kind: config.kind,
        seed: config.seed,
        replicates: config.replicates,
        chunkSize: config.chunkSize,
        settings: config.cellAt(0).settings,
        grid: axes,
      }),
    )
    .digest('hex');
}

/**
 * probeCells(config) lists the cells that show every value a setting takes somewhere in
 * the grid (axis by axis; a default that depends on two axes at once may be missed): every cell of a grid of at most
 * EAGER_CELL_LIMIT cells, else the first cell
 * and, per axis and value, the cell that differs from the first only in that axis.
 * O(min(cells, sum of the axes' lengths)).
 */
export function probeCells(config: ExperimentConfig): number[] {
  if (config.cellCount <= EAGER_CELL_LIMIT) return Array.from({ length: config.cellCount }, (_, index) => index);
  const indices = [0];
  let stride = config.cellCount;
  for (const axis of config.grid) {
    stride /= axis.values.length;
    for (let i = 1; i < axis.values.length; i++) indices.push(i * stride);
  }
  return indices;
}

/**
 * buildPlan(config, kind) is the plan of a validated config: cells in grid order, each
 * with a canonical key (canonicalJson of its coordinates), and chunks of at most
 * chunkSize consecutive replicates of one cell, both made on demand. Grid columns with
 * object values are labelled by kind.labelOf (e.g. a pool's name) or their canonical
 * JSON; two values of one axis with the same label are an InputError, as is a plan of
 * more than MAX_PLAN_CHUNKS chunks. O(sum of the grid axes' lengths) time and memory.
 */
export function buildPlan(config: ExperimentConfig, kind: KindRunner): Plan {
  const reserved = new Set([...FIXED_COLUMNS, ...kind.outcomeColumns.map((c) => c.name)]);
  const columnOf = (key: string): GridColumn => {
    const plain = key.replaceAll('.', '_');
    return { key, column: reserved.has(plain) ? `setting_${plain}` : plain, type: columnTypeOf(kind, key) };
  };
  // One column per setting: a linked axis (grid.zip) has one per setting it links.
  const axisColumns: GridColumn[][] = config.grid.map((axis) => (axis.linked ?? [axis.key]).map(columnOf));
  const gridColumns: GridColumn[] = axisColumns.flat();
  const columnValues: ColumnValue[][][] = config.grid.map((axis, a) =>
    axisColumns[a].map((column) =>
      axis.values.map((value) =>
        columnValue(kind, column, axis.linked === undefined ? value : (value as Record<string, unknown>)[column.key]),
      ),
    ),
  );
  // An axis's label per value: its one column's, or its columns' joined (checked distinct below).
  const values: ColumnValue[][] = config.grid.map((axis, a) =>
    axis.values.map((_, i) =>
      axisColumns[a].length === 1 && axis.linked === undefined
        ? columnValues[a][0][i]
        : axisColumns[a].map((column, c) => `${column.key}=${columnValues[a][c][i]}`).join(', '),
    ),
  );
  // Settings the kind records whenever a cell sets them (not coordinates: they leave the cell keys alone).
  const probes = kind.recordedSettings === undefined ? [] : probeCells(config);
  const recorded = (kind.recordedSettings ?? []).filter(
    (key) =>
      !gridColumns.some((column) => column.key === key) &&
      probes.some((index) => config.cellAt(index).settings[key] !== undefined),
  );
  const recordedColumns = recorded.map((key): GridColumn => ({ ...columnOf(key), recorded: true }));
  for (const [a, axis] of config.grid.entries()) {
    const labels = new Map<string, number>();
    values[a].forEach((value, index) => {
      const label = String(value);
      const earlier = labels.get(label);
      if (earlier !== undefined) {
        throw new InputError(
          `${config.file}: grid.${axis.key}[${index}]: expected a label different from item ${earlier}'s (give ` +
            `each a distinct name), found ${JSON.stringify(label)} twice`,
        );
      }
      labels.set(label, index);
    });
  }
  const chunksPerCell = Math.ceil(config.replicates / config.chunkSize);
  const chunkCount = config.cellCount * chunksPerCell;
  if (chunkCount > MAX_PLAN_CHUNKS) {
    throw new InputError(
      `${config.file}: chunkSize: expected a plan of at most ${MAX_PLAN_CHUNKS} chunks (cells × ⌈replicates / ` +
        `chunkSize⌉), found ${config.cellCount} × ${chunksPerCell} = ${chunkCount} chunks (raise chunkSize)`,
    );
  }
  const recent = new Map<number, PlanCell>();
  const cellAt = (index: number): PlanCell => {
    let cell = recent.get(index);
    if (cell !== undefined) return cell;
    const { coordinates, settings } = config.cellAt(index);
    const columns: Record<string, ColumnValue> = {};
    const labelled: Record<string, ColumnValue | null> = {};
    let rest = index;
    for (let a = config.grid.length - 1; a >= 0; a--) {
      const length = config.grid[a].values.length;
      const i = rest % length;
      rest = Math.floor(rest / length);
      axisColumns[a].forEach((column, c) => {
        const value = columnValues[a][c][i];
        columns[column.column] = value;
        labelled[column.key] = coordinates[column.key] === null ? null : value;
      });
    }
    for (const column of recordedColumns)
      columns[column.column] = columnValue(kind, column, settings[column.key] ?? '');
    cell = { index, key: canonicalJson(labelled), coordinates, columns, settings };
    if (recent.size >= CELL_CACHE_SIZE) recent.delete(recent.keys().next().value as number);
    recent.set(index, cell);
    return cell;
  };
  const chunkAt = (index: number): PlanChunk => {
    const cell = Math.floor(index / chunksPerCell);
    const firstReplicate = (index - cell * chunksPerCell) * config.chunkSize;
    return { index, cell, firstReplicate, count: Math.min(config.chunkSize, config.replicates - firstReplicate) };
  };
  const fingerprint = planFingerprint(
    config,
    values.map((axis) => axis.map(String)),
  );
  let cells: PlanCell[] | undefined;
  let chunks: PlanChunk[] | undefined;
  return {
    experiment: config.experiment,
    kind: config.kind,
    seed: config.seed,
    replicates: config.replicates,
    chunkSize: config.chunkSize,
    gridColumns: [...gridColumns, ...recordedColumns],
    cellCount: config.cellCount,
    chunksPerCell,
    chunkCount,
    tasks: config.cellCount * config.replicates,
    fingerprint,
    cellAt,
    chunkAt,
    get cells() {
      cells ??= Array.from({ length: config.cellCount }, (_, index) => cellAt(index));
      return cells;
    },
    get chunks() {
      chunks ??= Array.from({ length: chunkCount }, (_, index) => chunkAt(index));
      return chunks;
    },
  };
}

/** planChunks(cells, replicates, chunkSize): runs of at most chunkSize consecutive replicates of one cell, cells in
 * order. O(chunks). */
export function planChunks(cells: number, replicates: number, chunkSize: number): PlanChunk[] {
  const chunks: PlanChunk[] = [];
  for (let cell = 0; cell < cells; cell++) {
    for (let first = 0; first < replicates; first += chunkSize) {
      chunks.push({
        index: chunks.length,
        cell,
        firstReplicate: first,
        count: Math.min(chunkSize, replicates - first),
      });
    }
  }
  return chunks;
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

/** Whether chunk `index` belongs to the shard (every chunk does without one). O(1). */
export function shardHasChunk(shard: Shard | null | undefined, index: number): boolean {
  return !shard || index % shard.count === shard.index - 1;
}

/** shardChunks(plan, shard) yields the chunks of a shard (all without one) in plan order, made on demand. O(1) memory.
 * */
export function* shardChunks(plan: PlanShape, shard: Shard | null | undefined): Generator<PlanChunk> {
  const step = shard ? shard.count : 1;
  for (let index = shard ? shard.index - 1 : 0; index < plan.chunkCount; index += step) yield plan.chunkAt(index);
}

/** The chunks of a shard (all chunks when shard is undefined), in plan order, as an array: O(chunks); shardChunks
 * streams them. */
export function chunksOfShard(plan: Plan, shard: Shard | null | undefined): PlanChunk[] {
  return [...shardChunks(plan, shard)];
}

/** How many chunk indices j in [0, length) satisfy (start + j) mod n = r. O(1). */
function countResidue(start: number, length: number, n: number, r: number): number {
  const first = (((r - start) % n) + n) % n;
  return first < length ? Math.floor((length - 1 - first) / n) + 1 : 0;
}

/**
 * cellShardRows(plan, cell, shard) is how many replicates of cell `cell` the shard
 * runs (all of the cell's without one). O(1).
 */
export function cellShardRows(plan: PlanShape, cell: number, shard: Shard | null | undefined): number {
  if (!shard) return plan.replicates;
  const start = cell * plan.chunksPerCell;
  const chunks = countResidue(start, plan.chunksPerCell, shard.count, shard.index - 1);
  const lastCount = plan.replicates - (plan.chunksPerCell - 1) * plan.chunkSize;
  const ownsLast = shardHasChunk(shard, start + plan.chunksPerCell - 1);
  return chunks * plan.chunkSize - (ownsLast ? plan.chunkSize - lastCount : 0);
}

/**
 * shardSize(plan, shard) counts a shard's chunks and replicates (the whole plan's
 * without one) arithmetically. O(shard count) time, O(1) memory.
 */
export function shardSize(plan: PlanShape, shard: Shard | null | undefined): { chunks: number; rows: number } {
  if (!shard) return { chunks: plan.chunkCount, rows: plan.tasks };
  const n = shard.count;
  const r = shard.index - 1;
  const chunks = countResidue(0, plan.chunkCount, n, r);
  // Cells whose last (possibly short) chunk is in the shard: c·cpc + cpc − 1 ≡ r (mod n),
  // a condition on c mod n only, so count each residue class of c.
  let shortCells = 0;
  for (let residue = 0; residue < Math.min(n, plan.cellCount); residue++) {
    if ((residue * plan.chunksPerCell + plan.chunksPerCell - 1) % n === r)
      shortCells += Math.floor((plan.cellCount - 1 - residue) / n) + 1;
  }
  const lastCount = plan.replicates - (plan.chunksPerCell - 1) * plan.chunkSize;
  return { chunks, rows: chunks * plan.chunkSize - shortCells * (plan.chunkSize - lastCount) };
}

import { statSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type AsyncRecordBatchFileReader,
  type DataType,
  type RecordBatch,
  RecordBatchReader,
  type Schema,
} from 'apache-arrow';
import { describeFound, InputError } from '../util/errors.js';
import { sha256OfFile } from '../util/sha256.js';
import type { ColumnBlock } from './chunk-payload.js';
import type { ColumnType, KindRunner, OutcomeColumn } from './kind-runner.js';
import { findKindRunner } from './kind-runners.js';
import {
  type GridColumn,
  type Plan,
  type PlanCell,
  type PlanChunk,
  type PlanShape,
  replicateSeed,
  type Shard,
  shardChunks,
  shardSize,
} from './plan.js';
import type { ResultColumn } from './results-table.js';
import { planFromRecord, type RecordedColumn, type RunRecord, readRunRecord, resultsArtifact } from './run-record.js';

/** One record batch of a checked results.arrow: its rows as ColumnBlocks (bool as 0/1 bytes, utf8 as strings). */
export interface ResultBatch {
  /** Index of the batch's first row in the file. */
  firstRow: number;
  rows: number;
  columns: Record<string, ColumnBlock>;
}

/** A results folder whose run.json and results.arrow agree (openResults). */
export interface CheckedResults {
  folder: string;
  resultsFile: string;
  record: RunRecord;
  /** The plan rebuilt from run.json's config (openResults with `plan: true`), else null. */
  plan: Plan | null;
  kind: KindRunner | null;
  shard: Shard | null;
  columns: ResultColumn[];
  rows: number;
  /**
   * The record batches in order, each row checked: experiment and kind as run.json
   * says; the cell, grid columns and replicate of each row in the plan's order (from
   * the cells run.json lists, or, for a plan too large to list, from the plan its
   * config gives when the kind is registered; otherwise only the replicate's range);
   * utf8 outcome values within their declared values. After the last batch, the row
   * count. Throws InputError naming the file and row. Memory: one batch.
   */
  batches(): AsyncGenerator<ResultBatch>;
}

function arrowTypeName(type: DataType): ColumnType | string {
  const name = String(type);
  if (name === 'Utf8') return 'utf8';
  if (name === 'Int32') return 'int32';
  if (name === 'Float64') return 'float64';
  if (name === 'Bool') return 'bool';
  return name;
}

/** A column of a batch as a ColumnBlock (numbers as typed arrays, bool as 0/1, utf8 as strings). O(rows). */
function blockOf(batch: RecordBatch, index: number, type: ColumnType): ColumnBlock {
  const vector = batch.getChildAt(index);
  const rows = batch.numRows;
  if (vector === null) return [];
  if (type === 'int32' || type === 'float64') return vector.toArray() as Int32Array | Float64Array;
  if (type === 'bool') {
    const values = new Uint8Array(rows);
    for (let i = 0; i < rows; i++) values[i] = vector.get(i) ? 1 : 0;
    return values;
  }
  const texts = new Array<string>(rows);
  for (let i = 0; i < rows; i++) texts[i] = String(vector.get(i));
  return texts;
}

/** The enums of utf8 outcome columns: from the registered kind when there is one, else as run.json records them. */
function domainsOf(kind: KindRunner | null, recorded: readonly RecordedColumn[]): Map<string, ReadonlySet<string>> {
  const columns: readonly (OutcomeColumn | RecordedColumn)[] = kind?.outcomeColumns ?? recorded;
  const domains = new Map<string, ReadonlySet<string>>();
  for (const column of columns)
    if (column.type === 'utf8' && column.values !== undefined) domains.set(column.name, new Set(column.values));
  return domains;
}

/** Checks the schema of results.arrow against run.json: columns (names, types, order) and the metadata. */
function checkSchema(schema: Schema, record: RunRecord, file: string): ResultColumn[] {
  const found = schema.fields.map((field) => `${field.name}:${arrowTypeName(field.type)}`);
  const expected = record.columns.map((column) => `${column.name}:${column.type}`);
  if (found.join(',') !== expected.join(',')) {
    throw new InputError(
      `${file}: expected the columns run.json lists (${describeFound(expected.join(', '))}), ` +
        `found ${describeFound(found.join(', '))}`,
    );
  }
  const metadata = schema.metadata;
  for (const [key, value] of [
    ['fairaudit.experiment', record.experiment],
    ['fairaudit.kind', record.kind],
    ['fairaudit.fingerprint', record.plan.fingerprint],
  ] as const) {
    if (metadata.get(key) !== value)
      throw new InputError(
        `${file}: schema metadata ${key}: expected ${describeFound(value)} as run.json records, ` +
          `found ${describeFound(metadata.get(key))}`,
      );
  }
  return record.columns.map((column) => ({ name: column.name, type: column.type as ColumnType }));
}

/** The plan as far as row checks need it: its shape, grid columns and cells' keys and columns. */
interface RowPlan extends PlanShape {
  seed: string;
  gridColumns: GridColumn[];
  cellAt(index: number): Pick<PlanCell, 'index' | 'key' | 'columns' | 'settings'>;
}

type RowCell = ReturnType<RowPlan['cellAt']>;

/**
 * The plan as run.json lists it (plans of at most EAGER_CELL_LIMIT cells list every
 * cell's key and grid columns), or null when it lists no cells. Throws InputError
 * naming run.json when the listing is malformed. O(listed cells).
 */
function recordedPlan(record: RunRecord, runFile: string): RowPlan | null {
  const { plan } = record;
  if (!Array.isArray(plan.cells)) return null;
  const bad = (what: string) => new InputError(`${runFile}: plan: expected ${what}, found it malformed`);
  if (
    !Number.isSafeInteger(plan.chunkSize) ||
    plan.chunkSize < 1 ||
    !Number.isSafeInteger(plan.replicates) ||
    plan.replicates < 1
  )
    throw bad('replicates and chunkSize');
  if (
    !Array.isArray(plan.gridColumns) ||
    !plan.gridColumns.every((c) => typeof c?.column === 'string' && typeof c?.type === 'string')
  )
    throw bad('gridColumns');
  const cells = plan.cells.map((cell, index) => {
    if (
      typeof cell?.key !== 'string' ||
      typeof cell.columns !== 'object' ||
      cell.columns === null ||
      typeof cell.settings !== 'object' ||
      cell.settings === null
    )
      throw bad(`cell ${index} with its key, columns and settings`);
    return { index, key: cell.key, columns: cell.columns, settings: cell.settings };
  });
  const chunksPerCell = Math.ceil(plan.replicates / plan.chunkSize);
  return {
    seed: String(plan.seed),
    replicates: plan.replicates,
    chunkSize: plan.chunkSize,
    cellCount: cells.length,
    chunksPerCell,
    chunkCount: cells.length * chunksPerCell,
    tasks: cells.length * plan.replicates,
    gridColumns: plan.gridColumns,
    cellAt: (index) => cells[index],
    chunkAt: (index) => {
      const cell = Math.floor(index / chunksPerCell);
      const firstReplicate = (index - cell * chunksPerCell) * plan.chunkSize;
      return { index, cell, firstReplicate, count: Math.min(plan.chunkSize, plan.replicates - firstReplicate) };
    },
  };
}

/** Where each row should be in the plan: the shard's chunks in order, replicate by replicate. */
class PlanPosition {
  private readonly chunks: Generator<PlanChunk>;
  private chunk: PlanChunk | undefined;
  private offset = 0;
  private cell: RowCell | undefined;

  constructor(
    private readonly plan: RowPlan,
    shard: Shard | null,
  ) {
    this.chunks = shardChunks(plan, shard);
    this.chunk = this.chunks.next().value ?? undefined;
  }

  /** The cell and replicate the next row must have (undefined past the plan's end), then moves on. O(1) amortised. */
  next(): { cell: RowCell; replicate: number } | undefined {
    while (this.chunk !== undefined && this.offset >= this.chunk.count) {
      this.chunk = this.chunks.next().value ?? undefined;
      this.offset = 0;
    }
    if (this.chunk === undefined) return undefined;
    if (this.cell?.index !== this.chunk.cell) this.cell = this.plan.cellAt(this.chunk.cell);
    return { cell: this.cell, replicate: this.chunk.firstReplicate + this.offset++ };
  }
}

/**
 * openResults(folder) opens a results folder for reading and checks what can be
 * checked before reading rows: run.json (format 2, with its artifacts; a folder
 * written before checksums existed is refused with a message to run again), the
 * SHA-256 and size of results.arrow against run.json, its columns and schema metadata
 * against run.json's, and, with `plan: true` (merge), that run.json's config gives the
 * plan it records (the kind must be registered). Its batches() checks every row as it
 * is read. Throws InputError
 * (exit 2) naming the file. O(size of results.arrow) to hash it; memory O(1).
 */
export async function openResults(folder: string, options: { plan?: boolean } = {}): Promise<CheckedResults> {
  let isFolder = false;
  try {
    isFolder = statSync(folder).isDirectory();
  } catch {
    // reported below
  }
  if (!isFolder)
    throw new InputError(
      `${folder}: expected a results folder written by "fairaudit run" (results.arrow, run.json), found no such folder`,
    );
  const resultsFile = join(folder, 'results.arrow');
  const runFile = join(folder, 'run.json');
  let size: number;
  try {
    size = statSync(resultsFile).size;
  } catch {
    throw new InputError(
      `${folder}: expected a results folder with results.arrow (written by "fairaudit run"), found no results.arrow`,
    );
  }
  const record = readRunRecord(folder);
  const artifact = resultsArtifact(record);
  if (size !== artifact.bytes) {
    throw new InputError(
      `${resultsFile}: expected the ${artifact.bytes} bytes ${runFile} records, found ${size} bytes (changed or ` +
        `damaged after the run; run the experiment again)`,
    );
  }
  const sha256 = await sha256OfFile(resultsFile);
  if (sha256 !== artifact.sha256) {
    throw new InputError(
      `${resultsFile}: expected the SHA-256 ${runFile} records ` +
        `(${describeFound(artifact.sha256.slice(0, 16))}…), found ${sha256.slice(0, 16)}… (changed or damaged ` +
        `after the ` +
        `run; run the experiment again)`,
    );
  }
  const kind = findKindRunner(record.kind) ?? null;
  if (options.plan && kind === null)
    throw new InputError(`${runFile}: expected a known experiment kind, found ${describeFound(record.kind)}`);
  const plan = options.plan ? planFromRecord(record, runFile) : null;
  const rowPlan = plan ?? recordedPlan(record, runFile) ?? (kind === null ? null : planFromRecord(record, runFile));
  const shard = record.shard;
  if (rowPlan !== null && shardSize(rowPlan, shard).rows !== record.rows) {
    throw new InputError(
      `${runFile}: rows: expected the ${shardSize(rowPlan, shard).rows} replicates of the ` +
        `plan${shard ? ` and shard ${shard.index}/${shard.count}` : ''}, found ${record.rows}`,
    );
  }
  const columns = await withReader(resultsFile, async (reader) => checkSchema(reader.schema, record, resultsFile));
  return {
    folder,
    resultsFile,
    record,
    plan,
    kind,
    shard,
    columns,
    rows: record.rows,
    batches: () => checkedBatches(resultsFile, record, columns, rowPlan, domainsOf(kind, record.columns), kind),
  };
}

/** Opens results.arrow as an Arrow file reader (its batches read one at a time), runs use, then closes it. */
async function withReader<T>(file: string, use: (reader: AsyncRecordBatchFileReader) => Promise<T>): Promise<T> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(file, 'r');
    let reader: AsyncRecordBatchFileReader;
    try {
      reader = (await RecordBatchReader.from(handle)) as unknown as AsyncRecordBatchFileReader;
      await reader.open();
      if (!reader.isFile()) throw new Error('not an Arrow IPC file');
    } catch (error) {
      throw new InputError(
        `${file}: expected an Arrow IPC file, found unreadable bytes (${describeFound((error as Error).message)})`,
      );
    }
    return await use(reader);
  } finally {
    await handle?.close();
  }
}

async function* checkedBatches(
  file: string,
  record: RunRecord,
  columns: readonly ResultColumn[],
  plan: RowPlan | null,
  domains: ReadonlyMap<string, ReadonlySet<string>>,
  runner: KindRunner | null,
): AsyncGenerator<ResultBatch> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(file, 'r');
    const reader = (await RecordBatchReader.from(handle)) as unknown as AsyncRecordBatchFileReader;
    await reader.open();
    const position = plan === null ? null : new PlanPosition(plan, record.shard);
    const gridColumns = plan?.gridColumns ?? [];
    let firstRow = 0;
    for (let b = 0; b < reader.numRecordBatches; b++) {
      let batch: RecordBatch | null;
      try {
        batch = await reader.readRecordBatch(b);
      } catch (error) {
        throw new InputError(
          `${file}: record batch ${b}: expected Arrow data, found unreadable bytes ` +
            `(${describeFound((error as Error).message)})`,
        );
      }
      if (batch === null)
        throw new InputError(`${file}: expected ${reader.numRecordBatches} record batches, found ${b}`);
      const blocks: Record<string, ColumnBlock> = {};
      columns.forEach((column, c) => {
        blocks[column.name] = blockOf(batch as RecordBatch, c, column.type);
      });
      const rows = batch.numRows;
      const fail = (row: number, column: string, expected: string, found: unknown): never => {
        throw new InputError(
          `${file}: row ${firstRow + row}, column ${column}: expected ${expected}, found ${describeFound(found)}`,
        );
      };
      const experiment = blocks.experiment as readonly string[];
      const kind = blocks.kind as readonly string[];
      const cells = blocks.cell as readonly string[];
      const replicates = blocks.replicate as Int32Array;
      const seeds = blocks.seed as readonly string[];
      const masterSeed = plan?.seed ?? String(record.plan.seed);
      for (let row = 0; row < rows; row++) {
        if (seeds[row] !== replicateSeed(masterSeed, cells[row], replicates[row]))
          fail(
            row,
            'seed',
            `${replicateSeed(masterSeed, cells[row], replicates[row])}, the seed of (master seed, cell, ` +
              `replicate) (not a row of this run's seed)`,
            seeds[row],
          );
        if (experiment[row] !== record.experiment)
          fail(row, 'experiment', `${describeFound(record.experiment)} as run.json records`, experiment[row]);
        if (kind[row] !== record.kind)
          fail(row, 'kind', `${describeFound(record.kind)} as run.json records`, kind[row]);
        if (position !== null) {
          const expected = position.next();
          if (expected === undefined) fail(row, 'cell', `no more rows than the plan's ${record.rows}`, cells[row]);
          const { cell, replicate } = expected as { cell: RowCell; replicate: number };
          if (cells[row] !== cell.key) fail(row, 'cell', `${describeFound(cell.key)} (the plan's order)`, cells[row]);
          if (replicates[row] !== replicate) fail(row, 'replicate', `${replicate} (the plan's order)`, replicates[row]);
          for (const grid of gridColumns) {
            const value = (blocks[grid.column] as ArrayLike<unknown>)[row];
            const wanted = cell.columns[grid.column];
            // run.json is JSON: a number column's NaN (a grid value null) is recorded there as null.
            const same =
              grid.type === 'bool'
                ? (value === 1) === (wanted === true)
                : value === wanted || (Number.isNaN(value) && (wanted === null || Number.isNaN(wanted)));
            if (!same) fail(row, grid.column, `${describeFound(wanted)} (cell ${cell.key})`, value);
          }
          const problem = runner?.rowProblem?.(cell.settings, blocks, row) ?? null;
          if (problem !== null)
            throw new InputError(
              `${file}: row ${firstRow + row} (cell ${cell.key}, replicate ${replicate}): ${problem} (values ` +
                `that do not re-derive: edited, not damaged, since the checksum holds)`,
            );
        } else if (!(replicates[row] >= 0 && replicates[row] < record.plan.replicates)) {
          fail(row, 'replicate', `a replicate index from 0 to ${record.plan.replicates - 1}`, replicates[row]);
        }
      }
      for (const [name, domain] of domains) {
        const values = blocks[name] as readonly string[] | undefined;
        if (values === undefined) continue;
        for (let row = 0; row < rows; row++) {
          if (!domain.has(values[row])) fail(row, name, `one of ${[...domain].join(', ')}`, values[row]);
        }
      }
      yield { firstRow, rows, columns: blocks };
      firstRow += rows;
    }
    if (firstRow !== record.rows)
      throw new InputError(`${file}: expected the ${record.rows} rows run.json records, found ${firstRow}`);
  } finally {
    await handle?.close();
  }
}

import { join, resolve } from 'node:path';
import type { Table } from 'apache-arrow';
import { openResults } from '../harness/results-reader.js';
import { inputError } from '../util/errors.js';
import { type ResultRow, type SettingValue, settingKey } from './cell-results.js';

/** A plan cell as run.json records it (the fields the reporter reads). */
export interface PlannedCell {
  key: string;
  settings: Record<string, SettingValue>;
  replicates?: number;
}

/** run.json, read leniently: the reporter shows what is there. */
export interface RunRecord {
  /** The parsed JSON as written by the runner. */
  raw: Record<string, unknown>;
  /** The plan's cells with flattened settings (keys "." → "_"), when present. */
  plannedCells: PlannedCell[];
  /** Provenance fields (version, node, git commit, seed, threads, wall time, ...). */
  provenance: Record<string, unknown>;
}

/** A results folder opened and checked (run.json and results.arrow agree); its rows are read on demand. */
export interface ResultsFolder {
  directory: string;
  experiment: string;
  kind: string;
  /** Setting columns that vary over the grid (between `cell` and `replicate`). */
  varyingSettings: string[];
  /** All columns of results.arrow, in order. */
  columns: string[];
  /** Replicate rows in results.arrow (as run.json records and the file holds). */
  rowCount: number;
  /**
   * The replicate rows in order, read one record batch at a time and checked as read
   * (openResults in src/harness/results-reader.ts); a row object is made per row and
   * not kept. Throws InputError naming the file and row. Memory: one batch.
   */
  rows(): AsyncGenerator<ResultRow>;
  /** run.json as the reporter reads it. */
  run: RunRecord | null;
}

function toCell(value: unknown): string | number | boolean | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return String(value);
}

/** rowsOfTable(table) turns an Arrow table into plain records (int64 → number). O(rows × columns). */
export function rowsOfTable(table: Table): ResultRow[] {
  const names = table.schema.fields.map((field) => field.name);
  const columns = names.map((name) => table.getChild(name));
  const rows: ResultRow[] = new Array(table.numRows);
  for (let i = 0; i < table.numRows; i++) {
    const row: ResultRow = {};
    for (let c = 0; c < names.length; c++) row[names[c]] = toCell(columns[c]?.get(i));
    rows[i] = row;
  }
  return rows;
}

function flattenSettings(value: unknown, prefix: string, into: Record<string, SettingValue>): void {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    into[settingKey(prefix)] = value;
  } else if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, inner] of Object.entries(value))
      flattenSettings(inner, prefix === '' ? key : `${prefix}.${key}`, into);
  } else if (Array.isArray(value) && prefix !== '') {
    into[settingKey(prefix)] = JSON.stringify(value);
  }
}

function asObject(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/**
 * parseRunRecord(json, path) reads run.json leniently: the plan's cells (`plan.cells`
 * with `key` or `cell`, `settings` flattened, and the grid `columns` values), and the provenance object (`provenance`,
 * or
 * the top-level fields that are not config or plan). Throws InputError when the
 * JSON is not an object. O(size).
 */
export function parseRunRecord(json: unknown, path: string): RunRecord {
  const raw = asObject(json);
  if (raw === undefined)
    throw inputError({ where: path, expected: 'a JSON object (run.json written by fairaudit run)', found: json });
  const plan = asObject(raw.plan);
  const cells = Array.isArray(plan?.cells) ? plan.cells : [];
  const plannedCells: PlannedCell[] = [];
  for (const entry of cells) {
    const cell = asObject(entry);
    if (cell === undefined) continue;
    const key = typeof cell.key === 'string' ? cell.key : typeof cell.cell === 'string' ? cell.cell : undefined;
    if (key === undefined) continue;
    const settings: Record<string, SettingValue> = {};
    flattenSettings(cell.settings ?? {}, '', settings);
    const gridColumns = asObject(cell.columns);
    for (const [name, value] of Object.entries(gridColumns ?? {})) {
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') settings[name] = value;
    }
    plannedCells.push({ key, settings, replicates: typeof cell.replicates === 'number' ? cell.replicates : undefined });
  }
  const provenance =
    asObject(raw.provenance) ??
    Object.fromEntries(Object.entries(raw).filter(([key]) => key !== 'config' && key !== 'plan'));
  return { raw, plannedCells, provenance };
}

/** A value of a ColumnBlock as a ResultRow cell: bool 0/1 bytes become true/false. */
function cellValue(block: ArrayLike<unknown>, type: string, row: number): string | number | boolean | null {
  const value = block[row];
  if (type === 'bool') return value === 1;
  return toCell(value);
}

/**
 * readResultsFolder(directory) opens results/<experiment>/ and checks it before any
 * row is read (openResults: run.json of format 2, the SHA-256 and size of results.arrow
 * as run.json records them, its columns and schema metadata; a folder written before
 * checksums existed is refused with a message to run again), and that it has rows.
 * Rows are then read on demand by rows(), each checked (its place in the plan, the
 * declared values of its outcome columns). Throws InputError (exit 2) naming the file
 * and what is wrong. O(size of results.arrow) to hash it; memory O(1).
 * @param directory a results folder written by runExperiment
 * @returns its run record and its result rows, checked
 * @example
 * const folder = await readResultsFolder('results/quickstart');
 */
export async function readResultsFolder(directory: string): Promise<ResultsFolder> {
  const folder = resolve(directory);
  const checked = await openResults(folder);
  const resultsPath = join(folder, 'results.arrow');
  if (checked.rows === 0)
    throw inputError({ where: resultsPath, expected: 'at least one replicate row', found: 'an empty table (0 rows)' });
  const columns = checked.columns.map((column) => column.name);
  const types = checked.columns.map((column) => column.type);
  const varyingSettings = columns.slice(columns.indexOf('cell') + 1, columns.indexOf('replicate'));
  const run = parseRunRecord(JSON.parse(JSON.stringify(checked.record)), join(folder, 'run.json'));
  async function* rows(): AsyncGenerator<ResultRow> {
    for await (const batch of checked.batches()) {
      const blocks = columns.map((name) => batch.columns[name] as ArrayLike<unknown>);
      for (let i = 0; i < batch.rows; i++) {
        const row: ResultRow = {};
        for (let c = 0; c < columns.length; c++) row[columns[c]] = cellValue(blocks[c], types[c], i);
        yield row;
      }
    }
  }
  return {
    directory: folder,
    experiment: checked.record.experiment,
    kind: checked.record.kind,
    varyingSettings,
    columns,
    rowCount: checked.rows,
    rows,
    run,
  };
}

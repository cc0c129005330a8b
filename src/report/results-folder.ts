import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Table, tableFromIPC } from 'apache-arrow';
import { inputError } from '../util/errors.js';
import { type ResultRow, type SettingValue, settingKey } from './cell-results.js';
import { parseJsonUntrusted } from '../util/parse-untrusted.js';
import { MAX_JSON_FILE_BYTES, readFileCapped } from '../util/read-capped.js';

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

/** A results folder read and checked: the replicate rows and run.json. */
export interface ResultsFolder {
  directory: string;
  experiment: string;
  kind: string;
  /** Setting columns that vary over the grid (between `cell` and `replicate`). */
  varyingSettings: string[];
  /** All columns of results.arrow, in order. */
  columns: string[];
  rows: ResultRow[];
  /** run.json, or null when the folder has none. */
  run: RunRecord | null;
}

const requiredColumns = ['experiment', 'kind', 'cell', 'replicate'];

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
    for (const [key, inner] of Object.entries(value)) flattenSettings(inner, prefix === '' ? key : `${prefix}.${key}`, into);
  } else if (Array.isArray(value) && prefix !== '') {
    into[settingKey(prefix)] = JSON.stringify(value);
  }
}

function asObject(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/**
 * parseRunRecord(json, path) reads run.json leniently: the plan's cells (`plan.cells`
 * with `key` or `cell`, `settings` flattened, and the grid `columns` values), and the provenance object (`provenance`, or
 * the top-level fields that are not config or plan). Throws InputError when the
 * JSON is not an object. O(size).
 */
export function parseRunRecord(json: unknown, path: string): RunRecord {
  const raw = asObject(json);
  if (raw === undefined) throw inputError({ where: path, expected: 'a JSON object (run.json written by fairaudit run)', found: json });
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

/**
 * readResultsFolder(directory) reads results/<experiment>/results.arrow and run.json
 * and checks them: the folder exists, results.arrow has rows, the contract's columns
 * (experiment, kind, cell, replicate) and one experiment and one kind. Throws
 * InputError (exit 2) naming the file and what is wrong. O(rows × columns).
 */
export function readResultsFolder(directory: string): ResultsFolder {
  const folder = resolve(directory);
  if (!existsSync(folder) || !statSync(folder).isDirectory()) {
    throw inputError({ where: directory, expected: 'a results folder written by "fairaudit run" (results.arrow, run.json)', found: 'no such folder' });
  }
  const resultsPath = join(folder, 'results.arrow');
  if (!existsSync(resultsPath)) {
    throw inputError({ where: directory, expected: 'a results folder with results.arrow (written by "fairaudit run")', found: 'no results.arrow' });
  }
  let table: Table;
  try {
    table = tableFromIPC(readFileSync(resultsPath));
  } catch (error) {
    throw inputError({ where: resultsPath, expected: 'an Arrow IPC file', found: (error as Error).message });
  }
  const columns = table.schema.fields.map((field) => field.name);
  for (const name of requiredColumns) {
    if (!columns.includes(name)) throw inputError({ where: resultsPath, expected: `a column "${name}" (docs/contracts.md)`, found: columns });
  }
  if (table.numRows === 0) throw inputError({ where: resultsPath, expected: 'at least one replicate row', found: 'an empty table (0 rows)' });
  const rows = rowsOfTable(table);
  const distinct = (name: string) => [...new Set(rows.map((row) => String(row[name])))];
  const experiments = distinct('experiment');
  const kinds = distinct('kind');
  if (experiments.length !== 1) throw inputError({ where: `${resultsPath}: column experiment`, expected: 'one experiment per results folder', found: experiments });
  if (kinds.length !== 1) throw inputError({ where: `${resultsPath}: column kind`, expected: 'one experiment kind per results folder', found: kinds });
  const varyingSettings = columns.slice(columns.indexOf('cell') + 1, columns.indexOf('replicate'));
  const runPath = join(folder, 'run.json');
  let run: RunRecord | null = null;
  if (existsSync(runPath)) {
    const json = parseJsonUntrusted(readFileCapped(runPath, MAX_JSON_FILE_BYTES, 'a readable run.json').toString('utf8'), runPath);
    run = parseRunRecord(json, runPath);
  }
  return { directory: folder, experiment: experiments[0], kind: kinds[0], varyingSettings, columns, rows, run };
}

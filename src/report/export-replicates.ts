import { parquetWriteBuffer } from 'hyparquet-writer';
import { writeFileAtomic } from '../util/atomic-write.js';
import { inputError } from '../util/errors.js';
import { readResultsFolder } from './results-folder.js';

/** The formats `fairaudit export` writes. */
export const EXPORT_FORMATS = ['csv', 'parquet'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** A value of an exported column. */
export type ExportValue = string | number | boolean | null;

/** One row per replicate, every resolved setting a column of its own (dotted paths). */
export interface ReplicateTable {
  columns: string[];
  rows: Array<Record<string, ExportValue>>;
}

/** flattenSettings(settings) is the settings as dotted paths; lists become JSON text. */
function flattenSettings(value: unknown, prefix: string, into: Record<string, ExportValue>): void {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, inner] of Object.entries(value)) flattenSettings(inner, prefix ? `${prefix}.${key}` : key, into);
    return;
  }
  if (value === undefined) return;
  into[prefix] =
    value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
      ? value
      : JSON.stringify(value);
}

/** The cells of run.json's plan with their full settings, by cell key. Throws InputError when they are absent. */
function cellSettings(raw: Record<string, unknown>, where: string): Map<string, Record<string, ExportValue>> {
  const plan = raw.plan as { cells?: Array<{ key?: unknown; settings?: unknown }> } | undefined;
  if (!Array.isArray(plan?.cells)) {
    throw inputError({
      where: `${where}: plan.cells`,
      expected: "each cell's resolved settings (recorded for plans of at most 10,000 cells)",
      found: 'none',
    });
  }
  const cells = new Map<string, Record<string, ExportValue>>();
  for (const cell of plan.cells) {
    const flat: Record<string, ExportValue> = {};
    flattenSettings(cell.settings, '', flat);
    cells.set(String(cell.key), flat);
  }
  return cells;
}

/**
 * replicateTable(directory) reads a results folder (checked as `report` checks it) into
 * one row per replicate: experiment, kind, master_seed, cell, replicate, seed, every
 * resolved setting of the cell as a dotted column (pool.name, tolerance, metric, alpha,
 * ...: the settings off the grid too, so two sweeps can be concatenated), the grid's
 * own label columns that are not settings (a pool's name as `pool`), then the kind's
 * outcomes. Throws InputError for a missing or damaged folder. O(rows × columns).
 * @param directory a results folder written by `fairaudit run` or `reproduce`
 * @returns the columns in order and the rows
 * @example (await replicateTable('results/quickstart')).columns.includes('alpha') // true
 */
export async function replicateTable(directory: string): Promise<ReplicateTable> {
  const results = await readResultsFolder(directory);
  const raw = results.run?.raw;
  if (raw === undefined) {
    throw inputError({ where: `${directory}/run.json`, expected: 'the run record of the results', found: 'none' });
  }
  const cells = cellSettings(raw, `${results.directory}/run.json`);
  const settingColumns = [...new Set([...cells.values()].flatMap((settings) => Object.keys(settings)))].sort();
  const settingSet = new Set(settingColumns);
  const fixed = ['experiment', 'kind', 'master_seed', 'cell', 'replicate', 'seed'];
  const grid = results.varyingSettings.filter((column) => !settingSet.has(column));
  const start = results.columns.indexOf('replicate');
  const outcomes = results.columns.slice(start + 1).filter((column) => column !== 'seed');
  const columns = [...fixed, ...settingColumns, ...grid, ...outcomes];
  const masterSeed = String((raw.plan as { seed?: unknown }).seed ?? '');
  const rows: Array<Record<string, ExportValue>> = [];
  for await (const row of results.rows()) {
    const settings = cells.get(String(row.cell));
    if (settings === undefined) {
      throw inputError({
        where: `${results.directory}/results.arrow: row ${rows.length}`,
        expected: 'a cell of run.json',
        found: row.cell,
      });
    }
    const out: Record<string, ExportValue> = { master_seed: masterSeed };
    for (const column of columns) if (column !== 'master_seed') out[column] = settings[column] ?? row[column] ?? null;
    rows.push(out);
  }
  return { columns, rows };
}

function csvField(value: ExportValue): string {
  if (value === null) return '';
  const text = String(value);
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * replicatesToCsv(table) is RFC 4180 CSV with a header row; missing values empty,
 * numbers at full precision. O(rows × columns).
 */
export function replicatesToCsv(table: ReplicateTable): string {
  const lines = [table.columns.map(csvField).join(',')];
  for (const row of table.rows) lines.push(table.columns.map((column) => csvField(row[column] ?? null)).join(','));
  return `${lines.join('\n')}\n`;
}

/**
 * replicatesToParquet(table) is a Parquet file (hyparquet-writer): each column typed
 * from its values, DOUBLE when all numbers, BOOLEAN when all flags, else STRING.
 * O(rows × columns).
 */
export function replicatesToParquet(table: ReplicateTable): Uint8Array {
  const columnData = table.columns.map((name) => {
    const values = table.rows.map((row) => row[name] ?? null);
    const present = values.filter((value) => value !== null);
    if (present.length > 0 && present.every((value) => typeof value === 'number'))
      return { name, data: values, type: 'DOUBLE' as const };
    if (present.length > 0 && present.every((value) => typeof value === 'boolean'))
      return { name, data: values, type: 'BOOLEAN' as const };
    return { name, data: values.map((value) => (value === null ? null : String(value))), type: 'STRING' as const };
  });
  return new Uint8Array(parquetWriteBuffer({ columnData }));
}

/**
 * exportReplicates(directory, format, file) writes the folder's replicate table to
 * `file` (default <directory>/replicates.<format>) atomically. Throws InputError for a
 * bad folder. O(rows × columns).
 * @returns the path written and the number of rows and columns
 * @example await exportReplicates('results/linked-tolerances', 'csv')
 */
export async function exportReplicates(
  directory: string,
  format: ExportFormat,
  file?: string,
): Promise<{ path: string; rows: number; columns: number }> {
  const table = await replicateTable(directory);
  const path = file ?? `${directory.replace(/\/+$/, '')}/replicates.${format}`;
  if (format === 'csv') writeFileAtomic(path, replicatesToCsv(table));
  else writeFileAtomic(path, replicatesToParquet(table));
  return { path, rows: table.rows.length, columns: table.columns.length };
}

import { join } from 'node:path';
import { inputError } from '../util/errors.js';
import type { CellResults, CellSummary, ResultRow, SettingValue } from './cell-results.js';
import type { CellAccumulator, KindReporter } from './kind-reporter.js';
import type { ResultsFolder } from './results-folder.js';
import type { SummaryColumn, SummaryTable, SummaryValue } from './summary-table.js';

/** The settings of a cell: the plan's from run.json, overlaid with the varying-setting columns of its first row. */
function cellSettings(
  results: ResultsFolder,
  planned: ReadonlyMap<string, Record<string, SettingValue>>,
  key: string,
  row: ResultRow,
): Record<string, SettingValue> {
  const settings: Record<string, SettingValue> = { ...(planned.get(key) ?? {}) };
  for (const name of results.varyingSettings) {
    const value = row[name];
    if (value !== null && value !== undefined) settings[name] = value;
  }
  return settings;
}

/**
 * cellsInOrder(results, open, add) reads the rows once, batch by batch, and hands each
 * to its cell: open(key, settings) makes a cell's state on its first row (settings: the
 * plan's from run.json, overlaid with the varying-setting columns of that row), add
 * takes each row. Returns the cells' states in canonical order (first appearance).
 */
async function cellsInOrder<T>(
  results: ResultsFolder,
  open: (key: string, settings: Record<string, SettingValue>) => T,
  add: (cell: T, row: ResultRow) => void,
): Promise<T[]> {
  const planned = new Map((results.run?.plannedCells ?? []).map((cell) => [cell.key, cell.settings]));
  const cells = new Map<string, T>();
  for await (const row of results.rows()) {
    const key = String(row.cell);
    let cell = cells.get(key);
    if (cell === undefined) {
      cell = open(key, cellSettings(results, planned, key, row));
      cells.set(key, cell);
    }
    add(cell, row);
  }
  return [...cells.values()];
}

/**
 * groupCells(results) splits the replicate rows by their `cell` column, keeping the
 * canonical order (first appearance), and attaches each cell's settings: the plan's
 * settings from run.json, overlaid with the varying-setting columns. Holds every row:
 * O(rows) memory (summarizeResults does not need it for kinds that accumulate).
 */
export function groupCells(results: ResultsFolder): Promise<CellResults[]> {
  return cellsInOrder<CellResults>(
    results,
    (cell, settings) => ({ cell, settings, rows: [] }),
    (cell, row) => cell.rows.push(row),
  );
}

/** A cell being summarised: its settings, its row count, and its accumulator (or its rows, for a kind without one). */
interface OpenCell {
  cell: string;
  settings: Record<string, SettingValue>;
  replicates: number;
  accumulator: CellAccumulator | null;
  rows: ResultRow[];
}

/**
 * summarizeResults(results, kind) checks that results.arrow has the kind's outcome
 * columns, then summarises every cell, in canonical order (first appearance), reading
 * the rows once, batch by batch: a kind with accumulateCell gets each row as it is
 * read, so memory is O(cells) whatever the number of rows; a kind with only
 * summarizeCell gets each cell's rows at the end. Throws InputError naming
 * results.arrow and the missing columns, or a row that fails its checks. O(rows).
 */
export async function summarizeResults(results: ResultsFolder, kind: KindReporter): Promise<CellSummary[]> {
  const missing = kind.outcomeColumns.filter((name) => !results.columns.includes(name));
  if (missing.length > 0) {
    throw inputError({
      where: join(results.directory, 'results.arrow'),
      expected: `the outcome columns of kind ${kind.name} (${kind.outcomeColumns.join(', ')})`,
      found: `no ${missing.join(', ')}`,
    });
  }
  const cells = await cellsInOrder<OpenCell>(
    results,
    (cell, settings) => ({ cell, settings, replicates: 0, accumulator: kind.accumulateCell?.() ?? null, rows: [] }),
    (cell, row) => {
      cell.replicates += 1;
      if (cell.accumulator !== null) cell.accumulator.add(row);
      else cell.rows.push(row);
    },
  );
  return cells.map((cell) => ({
    cell: cell.cell,
    settings: cell.settings,
    replicates: cell.replicates,
    values:
      cell.accumulator?.finish() ?? kind.summarizeCell({ cell: cell.cell, settings: cell.settings, rows: cell.rows }),
  }));
}

/**
 * summaryTable(summaries, varyingSettings, kind) lays the summaries out as a table:
 * cell, the varying settings, replicates, then the kind's summary columns. O(cells).
 */
export function summaryTable(
  summaries: CellSummary[],
  varyingSettings: string[],
  kind: KindReporter,
  title: string,
): SummaryTable {
  const settingColumns: SummaryColumn[] = varyingSettings.map((name) => ({
    name,
    label: name,
    type: summaries.every((summary) => typeof summary.settings[name] === 'number') ? 'number' : 'string',
  }));
  const columns: SummaryColumn[] = [
    { name: 'cell', label: 'Cell', type: 'string' },
    ...settingColumns,
    { name: 'replicates', label: 'Replicates', type: 'number', digits: 0 },
    ...kind.summaryColumns,
  ];
  const rows = summaries.map((summary) => {
    const row: Record<string, SummaryValue> = { cell: summary.cell, replicates: summary.replicates };
    for (const column of settingColumns) {
      const value = summary.settings[column.name];
      row[column.name] = value === undefined ? null : column.type === 'number' ? Number(value) : String(value);
    }
    for (const column of kind.summaryColumns) row[column.name] = summary.values[column.name] ?? null;
    return row;
  });
  return { id: 'summary', title, caption: kind.description, columns, rows };
}

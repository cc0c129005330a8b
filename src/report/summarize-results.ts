import { join } from 'node:path';
import { inputError } from '../util/errors.js';
import type { CellResults, CellSummary, SettingValue } from './cell-results.js';
import type { KindReporter } from './kind-reporter.js';
import type { ResultsFolder } from './results-folder.js';
import type { SummaryColumn, SummaryTable, SummaryValue } from './summary-table.js';

/**
 * groupCells(results) splits the replicate rows by their `cell` column, keeping the
 * canonical order (first appearance), and attaches each cell's settings: the plan's
 * settings from run.json, overlaid with the varying-setting columns. O(rows).
 */
export function groupCells(results: ResultsFolder): CellResults[] {
  const planned = new Map((results.run?.plannedCells ?? []).map((cell) => [cell.key, cell.settings]));
  const byCell = new Map<string, CellResults>();
  for (const row of results.rows) {
    const key = String(row.cell);
    let cell = byCell.get(key);
    if (cell === undefined) {
      const settings: Record<string, SettingValue> = { ...(planned.get(key) ?? {}) };
      for (const name of results.varyingSettings) {
        const value = row[name];
        if (value !== null && value !== undefined) settings[name] = value;
      }
      cell = { cell: key, settings, rows: [] };
      byCell.set(key, cell);
    }
    cell.rows.push(row);
  }
  return [...byCell.values()];
}

/**
 * summarizeResults(results, kind) checks that results.arrow has the kind's outcome
 * columns, then summarises every cell with the kind's summarizeCell. Throws
 * InputError naming results.arrow and the missing columns. O(rows).
 */
export function summarizeResults(results: ResultsFolder, kind: KindReporter): CellSummary[] {
  const missing = kind.outcomeColumns.filter((name) => !results.columns.includes(name));
  if (missing.length > 0) {
    throw inputError({
      where: join(results.directory, 'results.arrow'),
      expected: `the outcome columns of kind ${kind.name} (${kind.outcomeColumns.join(', ')})`,
      found: `no ${missing.join(', ')}`,
    });
  }
  return groupCells(results).map((cell) => ({
    cell: cell.cell,
    settings: cell.settings,
    replicates: cell.rows.length,
    values: kind.summarizeCell(cell),
  }));
}

/**
 * summaryTable(summaries, varyingSettings, kind) lays the summaries out as a table:
 * cell, the varying settings, replicates, then the kind's summary columns. O(cells).
 */
export function summaryTable(summaries: CellSummary[], varyingSettings: string[], kind: KindReporter, title: string): SummaryTable {
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

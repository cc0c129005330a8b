import { type CellSummary, findCells, type SettingValue } from './cell-results.js';
import type { SummaryColumn, SummaryTable, SummaryValue } from './summary-table.js';

/**
 * A column of a paper table. Without `value` the column is a label column: each row
 * gives its text in `labels`. With `value` it is computed from the row's summarised
 * cell (for example `(cell) => cell.values.queries_mean`); `all` is every summarised
 * cell of the run, for columns that read a cell beside the row's own (Table 2's score
 * column sits in the decision-access row: `siblingCell(all, cell, ['pool', 'metric', 'access'], { access: 'score' })`).
 */
export interface PaperTableColumn extends SummaryColumn {
  value?: (cell: CellSummary, all: readonly CellSummary[]) => SummaryValue;
}

/**
 * siblingCell(all, cell, keys, change) is the one cell of `all` whose settings named in
 * `keys` equal `cell`'s, with `change` applied (for example keys pool, metric, access
 * and change { access: 'score' }), or undefined when none or several match.
 * O(cells × keys).
 */
export function siblingCell(
  all: readonly CellSummary[],
  cell: CellSummary,
  keys: readonly string[],
  change: Record<string, SettingValue>,
): CellSummary | undefined {
  const where: Record<string, SettingValue> = {};
  for (const key of keys) {
    const value = cell.settings[key];
    if (value !== undefined) where[key] = value;
  }
  const matches = findCells(all as CellSummary[], { ...where, ...change });
  return matches.length === 1 ? matches[0] : undefined;
}

/** One row of a paper table, as published: its labels and the cell it reads. */
export interface PaperTableRow {
  /** Text of the label columns, keyed by column name ("dataset": "ACS"). */
  labels: Record<string, string>;
  /** Settings that select exactly one summarised cell ("metric": "sp", "access": "decision"). */
  where: Record<string, SettingValue>;
}

/**
 * A paper's table laid out row by row as published (dataset, model, metric,
 * method, ...). The table modules of papers/<paper>/ export these; the paper's layout
 * (PaperLayout.build) lays them out with layoutPaperTable.
 */
export interface PaperTableLayout {
  /** File-safe id: tables/<id>.arrow, .csv, .md ("paper-a-table-4"). */
  id: string;
  /** As in the paper ("Table 4. Sequential vs. fixed-sample auditing ..."). */
  title: string;
  caption?: string;
  /** Experiment names (results/<experiment>) whose results fill this table. */
  experiments: string[];
  columns: PaperTableColumn[];
  rows: PaperTableRow[];
}

/**
 * layoutPaperTable(layout, summaries) fills a paper table from the summarised cells:
 * label columns from each row's labels, value columns from the one cell that matches
 * the row's `where`. A row that matches no cell, or several, gets null values and a
 * `note` saying so (the table keeps the paper's shape). O(rows × cells).
 */
export function layoutPaperTable(layout: PaperTableLayout, summaries: CellSummary[]): SummaryTable {
  const columns: SummaryColumn[] = layout.columns.map(({ value: _value, ...column }) => column);
  columns.push({ name: 'note', label: 'Note', type: 'string' });
  const rows = layout.rows.map((row) => {
    const matches = findCells(summaries, row.where);
    const record: Record<string, SummaryValue> = {};
    for (const column of layout.columns) {
      if (column.value === undefined) record[column.name] = row.labels[column.name] ?? null;
      else record[column.name] = matches.length === 1 ? column.value(matches[0], summaries) : null;
    }
    const where = JSON.stringify(row.where);
    record.note =
      matches.length === 1
        ? null
        : matches.length === 0
          ? `no cell matches ${where}`
          : `${matches.length} cells match ${where}`;
    return record;
  });
  return { id: layout.id, title: layout.title, caption: layout.caption, columns, rows };
}

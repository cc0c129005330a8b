import type { CellResults, CellSummary, ResultRow } from './cell-results.js';
import type { ChartSpec } from './charts/chart-spec.js';
import type { SummaryColumn, SummaryValue } from './summary-table.js';

/**
 * The report half of an experiment kind (src/kinds/kind.ts pairs it with its run
 * half): how the reporter summarises the kind's results (the `kind` column of
 * results.arrow). Each kind registers one of these; the reporter does the rest
 * (grouping rows by cell, writing tables, rendering charts, the HTML report, the
 * comparison with published numbers).
 */
export interface KindReporter {
  /** The experiment kind's name, exactly as in results.arrow's `kind` column. */
  name: string;
  /** One line saying what the kind's experiments measure (shown in report.html). */
  description: string;
  /** Outcome columns results.arrow must have for this kind (checked on read). */
  outcomeColumns: string[];
  /**
   * The statistics of a cell's summary, in order. A column `X` may have a Monte Carlo
   * standard error column `X_se`; `compare` uses it for "mean" cells.
   */
  summaryColumns: SummaryColumn[];
  /** Summarises one cell's replicate rows into values for summaryColumns. */
  summarizeCell(cell: CellResults): Record<string, SummaryValue>;
  /**
   * Optional: a fresh accumulator of one cell's summary, fed its rows one at a time in
   * replicate order. With it the reporter summarises results of any size in memory
   * O(cells) (each row is read, given to its cell's accumulator and dropped); without
   * it the reporter holds every row until summarizeCell. Its finish() must equal
   * summarizeCell on the same rows.
   */
  accumulateCell?(): CellAccumulator;
  /**
   * The summary column that a published cell's `quantity` names (optional). `labels`
   * are the cell's descriptive labels (metric, access, method). Cells that give a
   * `statistic` explicitly skip this.
   */
  statisticFor?(quantity: string, labels: Record<string, string>): string | undefined;
  /**
   * The kind's charts for a summarised run (optional). `varyingSettings` are the
   * setting columns that vary over the grid, in results order.
   */
  charts?(summaries: CellSummary[], varyingSettings: string[], experiment: string): ChartSpec[];
}

/** A cell's summary built one row at a time (KindReporter.accumulateCell). */
export interface CellAccumulator {
  /** Takes one row; must not keep it (the reporter may reuse the object). */
  add(row: ResultRow): void;
  /** The cell's summary values, as summarizeCell gives them. */
  finish(): Record<string, SummaryValue>;
}

/**
 * summarizeRows(accumulator, rows) feeds the rows, in order, to a fresh accumulator and
 * returns its summary: a kind that accumulates defines summarizeCell with it, so both
 * paths share one arithmetic. O(rows).
 */
export function summarizeRows(accumulator: CellAccumulator, rows: readonly ResultRow[]): Record<string, SummaryValue> {
  for (const row of rows) accumulator.add(row);
  return accumulator.finish();
}

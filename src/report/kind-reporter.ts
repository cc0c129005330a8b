import type { CellResults, CellSummary } from './cell-results.js';
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

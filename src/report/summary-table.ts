/**
 * The one table shape of the reporter: named, typed columns and plain rows. Summaries,
 * paper tables and comparisons are all SummaryTables, so one writer per format (Arrow,
 * CSV, Markdown, HTML) serves them all.
 */

/** One cell of a table: text, a number (NaN allowed), or missing. */
export type SummaryValue = string | number | null;

/** A column of a SummaryTable. */
export interface SummaryColumn {
  /** Machine name (snake_case): the Arrow/CSV header and the key in each row. */
  name: string;
  /** Human label for Markdown and HTML headers ("Mean queries"). */
  label: string;
  /** 'number' columns are written as float64 in Arrow, 'string' as utf8. */
  type: 'string' | 'number';
  /** Decimals shown in Markdown and HTML (Arrow and CSV keep full precision). */
  digits?: number;
  /** One sentence saying what the column holds, shown in the report. */
  description?: string;
  /** Long text (a reason): wraps in report.html instead of widening the table. */
  wrap?: boolean;
}

/** A titled table: columns in order and one record per row. */
export interface SummaryTable {
  /** Short file-safe identifier ("summary", "paper-a-table-4", "comparison"). */
  id: string;
  title: string;
  caption?: string;
  columns: SummaryColumn[];
  rows: Array<Record<string, SummaryValue>>;
}

/**
 * formatSummaryValue(value, column) renders one value for Markdown and HTML: numbers
 * with the column's digits (integers without decimals when digits is unset), NaN as
 * "NaN", null as an empty string. O(1).
 */
export function formatSummaryValue(value: SummaryValue, column: SummaryColumn): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? 'Infinity' : '-Infinity';
  if (column.digits !== undefined) return value.toFixed(column.digits);
  return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(6)));
}

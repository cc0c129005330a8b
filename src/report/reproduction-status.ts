import type { ComparisonRow, ComparisonStatus } from './compare-published.js';

/**
 * What a reader is told about one published cell, in the order the counts are printed:
 * - "reproduced": real data, within the Monte Carlo tolerance (or rounding);
 * - "within training variability": seed 0 misses it, but some retrained seed pair does not;
 * - "differs": real data, outside the tolerance, with the reason as far as it is known;
 * - "not reproduced": nothing to compare it with (no dataset, no value), with why;
 * - "not comparable": the cell cannot be compared (no mapping to a reproduced statistic);
 * - "synthetic": computed on calibrated synthetic data built from the published numbers,
 *   so agreement says nothing (never counted as reproduced, shown grey).
 */
export const REPRODUCTION_STATUSES = [
  'reproduced',
  'within training variability',
  'differs',
  'not reproduced',
  'not comparable',
  'synthetic',
] as const;

/** One of REPRODUCTION_STATUSES. */
export type ReproductionStatus = (typeof REPRODUCTION_STATUSES)[number];

/** A published cell with its status and, unless reproduced, why. */
export interface CellStatus {
  id: string;
  /** The published table or figure it belongs to ("Table 2"). */
  table: string;
  status: ReproductionStatus;
  why: string;
}

/** How many published cells have each status, and how many there are. */
export type ReproductionCounts = Record<ReproductionStatus, number> & { total: number };

/**
 * statusOfComparison(status) is the reader's status of a generic comparison verdict
 * (no paper layout to say more): within → reproduced, outside → differs, missing → not
 * reproduced, unmapped → not comparable.
 * @param status a comparePublished verdict
 * @returns the status shown to readers
 * @example statusOfComparison('outside') // 'differs'
 */
export function statusOfComparison(status: ComparisonStatus): ReproductionStatus {
  if (status === 'within') return 'reproduced';
  if (status === 'outside') return 'differs';
  return status === 'missing' ? 'not reproduced' : 'not comparable';
}

/**
 * genericCellStatuses(rows, reasons) gives every comparison row its reader's status,
 * with the reason a paper layout recorded for it (else the row's note). O(rows).
 * @param rows comparePublished's rows
 * @param reasons optional why per cell id
 * @returns one CellStatus per row, in order
 * @example genericCellStatuses(rows)[0].status // 'reproduced'
 */
export function genericCellStatuses(
  rows: readonly ComparisonRow[],
  reasons: Record<string, string> = {},
): CellStatus[] {
  return rows.map((row) => {
    const status = statusOfComparison(row.status);
    return { id: row.id, table: row.table, status, why: status === 'reproduced' ? '' : (reasons[row.id] ?? row.note) };
  });
}

/**
 * countStatuses(cells) counts the cells of each status. O(cells).
 * @param cells statuses of published cells
 * @returns the count of each status and the total
 * @example countStatuses([{ status: 'differs' }]).differs // 1
 */
export function countStatuses(cells: ReadonlyArray<{ status: ReproductionStatus }>): ReproductionCounts {
  const counts = Object.fromEntries(REPRODUCTION_STATUSES.map((status) => [status, 0])) as ReproductionCounts;
  for (const cell of cells) counts[cell.status] += 1;
  counts.total = cells.length;
  return counts;
}

/**
 * countsSentence(counts) is the one sentence every surface prints for a set of counts
 * (console, README.md, report.html, compare, index.html), every status named even
 * when zero, so the surfaces can be compared by eye and by test.
 * @param counts from countStatuses
 * @returns e.g. "164 published cells: 63 reproduced, 0 within training variability, ..."
 * @example countsSentence(countStatuses([])) // '0 published cells: 0 reproduced, ...'
 */
export function countsSentence(counts: ReproductionCounts): string {
  const parts = REPRODUCTION_STATUSES.map((status) =>
    status === 'synthetic'
      ? `${counts[status]} synthetic (calibrated, not a reproduction)`
      : `${counts[status]} ${status}`,
  );
  return `${counts.total} published cells: ${parts.join(', ')}`;
}

/**
 * statusClass(status) is the CSS class of a row of that status in report.html and
 * index.html ("status-not-reproduced"). O(1).
 * @param status a reader's status
 * @returns a class name
 * @example statusClass('within training variability') // 'status-within-training-variability'
 */
export function statusClass(status: ReproductionStatus): string {
  return `status-${status.replaceAll(' ', '-')}`;
}

/** The row colours of each status: green for reproduced, amber for training variability, red, grey. */
export const STATUS_STYLE = [
  'tr.status-reproduced td{background:#eef8ee}',
  'tr.status-within-training-variability td{background:#f6f3dc}',
  'tr.status-differs td{background:#fde8e8}',
  'tr.status-not-reproduced td,tr.status-not-comparable td{background:#f4f4f4;color:#555}',
  'tr.status-synthetic td{background:#e6e6e6;color:#555}',
].join('');

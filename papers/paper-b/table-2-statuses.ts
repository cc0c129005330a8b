import type { ComparisonRow } from '../../src/report/compare-published.js';
import type { PublishedCell } from '../../src/report/published.js';
import { type CellStatus, statusOfComparison } from '../../src/report/reproduction-status.js';

/** Why HateDay's Table 2 cells are not reproduced (one sentence, shared by the notice and the rows). */
export const HATEDAY_NOT_REPRODUCED =
  'HateDay is gated and not mirrored, so we train no model on it: its Table 2 row is the published one.';

function number(value: number | string | null): string {
  if (typeof value !== 'number') return String(value);
  return Number.isInteger(value) ? value.toLocaleString('en-US') : String(Number(value.toPrecision(4)));
}

/**
 * table2Reason(row) says why one of our Table 2 numbers differs from the published one,
 * from what the number depends on: the trained model (accuracy, the gap), the rows our
 * loader keeps (the dataset size and the sizes of C and S drawn from it), or how the
 * attribute's groups are formed (the minority sizes and share). O(1).
 * @param row a Table 2 comparison row outside its rounding
 * @returns one or two sentences naming the cause and both numbers
 * @example table2Reason(row) // 'A different trained model: ...'
 */
export function table2Reason(row: ComparisonRow): string {
  const both = `ours ${number(row.reproduced)} against the published ${number(row.published)}`;
  switch (row.statistic) {
    case 'accuracy':
    case 'gap':
      return (
        `A different trained model (${both}): our boosted trees come from a seeded 10-draw random search with ` +
        "5-fold CV on our seeded split; the paper publishes neither its search's draws nor its split or model."
      );
    case 'dataset_size':
      return (
        `Our loader keeps a different number of rows (${both}): its filtering of incomplete rows differs ` +
        `from the authors' preprocessing, which the paper does not state.`
      );
    case 'candidate_set_size':
    case 'audit_set_size':
      return (
        `C is 45% of the rows we load and S half of C (${both}), so these sizes follow our dataset size and ` +
        `rounding of the split.`
      );
    case 'audit_minority_size':
      if (row.difference !== null && Math.abs(row.difference) <= 1) {
        return (
          `Off by one (${both}): S takes half of C's minority group, and half of an odd count is rounded ` +
          `down here and up in the paper.`
        );
      }
      return (
        `The minority group's size follows from how the attribute's two groups are formed from its values ` +
        `and from the stratified split (${both}); the paper does not state its grouping.`
      );
    case 'candidate_minority_size':
    case 'minority_share':
      return (
        `The minority group's size follows from how the attribute's two groups are formed from its values ` +
        `and from the stratified split (${both}); the paper does not state its grouping.`
      );
    default:
      return `No known cause (${both}).`;
  }
}

/**
 * table2Statuses(cells, rows, unavailable, models) is the status of every published
 * Table 2 cell: compared cells are reproduced (within rounding) or differ with their
 * reason (table2Reason); HateDay's are not reproduced (gated data); those of a setting
 * whose model could not be made are not reproduced with the loader's reason; with no
 * models (--calibrated) every cell is not reproduced. O(cells + rows).
 * @param cells the published Table 2 cells
 * @param rows the comparison of our models' rows
 * @param unavailable the settings without a model ("CCD gender") and why
 * @param models whether our models were asked for
 * @returns one CellStatus per published cell, in published order
 * @example table2Statuses(cells, rows, [], true).filter((cell) => cell.status === 'differs')
 */
export function table2Statuses(
  cells: readonly PublishedCell[],
  rows: readonly ComparisonRow[],
  unavailable: ReadonlyArray<{ setting: string; reason: string }>,
  models: boolean,
): CellStatus[] {
  const compared = new Map(rows.map((row) => [row.id, row]));
  return cells.map((cell) => {
    const base = { id: cell.id, table: cell.table };
    const setting = typeof cell.row === 'string' ? cell.row : `${cell.row.dataset} ${cell.row.attribute}`;
    if (cell.where?.dataset === 'hateday') return { ...base, status: 'not reproduced', why: HATEDAY_NOT_REPRODUCED };
    if (!models) {
      return {
        ...base,
        status: 'not reproduced',
        why: 'Analytic only (--calibrated): Table 2 was not measured on our own models.',
      };
    }
    const missing = unavailable.find((entry) => entry.setting === setting);
    if (missing !== undefined) {
      return { ...base, status: 'not reproduced', why: `No ${setting} model: ${missing.reason.split('\n')[0]}` };
    }
    const row = compared.get(cell.id);
    if (row === undefined) return { ...base, status: 'not reproduced', why: 'not in this run' };
    const status = statusOfComparison(row.status);
    if (status === 'reproduced') return { ...base, status, why: '' };
    return { ...base, status, why: status === 'differs' ? table2Reason(row) : row.note };
  });
}

import { type CellSummary, findCells, type SettingValue } from '../../src/report/cell-results.js';

/**
 * The summarised cells of a run, for table columns that read a cell other than their
 * row's (Table 2's score and logit columns sit in the decision-only row; Table 1's EO
 * column in the SP row). The reporter hands a column only its row's cell, so the
 * pipeline fills this lookup with the same summaries (summariseRun) before the report
 * is written. Without summaries, every sibling reads as missing.
 */
export class SiblingCells {
  private summaries: CellSummary[] = [];

  /** use(summaries) sets the cells that sibling columns read. O(1). */
  use(summaries: CellSummary[]): void {
    this.summaries = summaries;
  }

  /**
   * sibling(cell, change) is the one cell whose settings equal `cell`'s with `change`
   * applied (e.g. { access: 'score' }), or undefined when none or several match.
   * O(cells).
   */
  sibling(cell: CellSummary, change: Record<string, SettingValue>): CellSummary | undefined {
    const where: Record<string, SettingValue> = {};
    for (const key of ['pool', 'metric', 'access']) {
      const value = cell.settings[key];
      if (value !== undefined) where[key] = value;
    }
    const matches = findCells(this.summaries, { ...where, ...change });
    return matches.length === 1 ? matches[0] : undefined;
  }
}

/** The lookup paper A's tables read; reproducePaperA fills it before each report. */
export const paperASiblingCells = new SiblingCells();

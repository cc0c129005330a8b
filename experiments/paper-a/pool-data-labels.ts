import type { CellSummary } from '../../src/report/cell-results.js';
import type { PaperTableColumn } from '../../src/report/paper-table.js';

/**
 * What each pool of a run stands on, in words ("real data (trained model)",
 * "CALIBRATED SYNTHETIC, not a reproduction"), for a Data column in every paper A
 * table, so a row from a calibrated pool says so where it is read. The pipeline fills
 * it before each report; unfilled, the column is empty.
 */
export class PoolDataLabels {
  private labels = new Map<string, string>();

  /** use(labels) sets the label of each pool name. O(pools). */
  use(labels: ReadonlyMap<string, string>): void {
    this.labels = new Map(labels);
  }

  /** labelOf(cell) is the label of the cell's pool, or null. O(1). */
  labelOf(cell: CellSummary): string | null {
    return this.labels.get(String(cell.settings.pool)) ?? null;
  }

  /** The Data column of a table that reads these labels. */
  column(): PaperTableColumn {
    return {
      name: 'data',
      label: 'Data',
      type: 'string',
      description: 'what the row stands on: real data and a trained model, or a calibrated synthetic pool (not a reproduction)',
      value: (cell) => this.labelOf(cell),
    };
  }
}

/** The labels paper A's tables read; reproducePaperA fills them. */
export const paperAPoolData = new PoolDataLabels();

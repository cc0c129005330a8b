import type { PaperTableColumn } from '../../src/report/paper-table.js';

/** What each pool of a run stands on, in words, keyed by pool name. */
export type PoolDataLabels = ReadonlyMap<string, string>;

/**
 * poolDataColumn(labels) is the Data column of every paper A table: what the row's
 * pool stands on ("real data (trained model)", "CALIBRATED SYNTHETIC, not a
 * reproduction"), so a row from a calibrated pool says so where it is read. A pool
 * without a label gets an empty cell. O(1) per row.
 */
export function poolDataColumn(labels: PoolDataLabels): PaperTableColumn {
  return {
    name: 'data',
    label: 'Data',
    type: 'string',
    description:
      'what the row stands on: real data and a trained model, or a calibrated synthetic pool (not a reproduction)',
    value: (cell) => labels.get(String(cell.settings.pool)) ?? null,
  };
}

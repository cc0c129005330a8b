import type { CellSummary } from '../../src/report/cell-results.js';
import { type PaperTableLayout, siblingCell } from '../../src/report/paper-table.js';
import { type PoolDataLabels, poolDataColumn } from './pool-data-labels.js';
import { PAPER_A_EXPERIMENT, PAPER_A_POOLS } from './pools.js';

/**
 * paperATable1(data?) lays out paper A Table 1 as printed: one row per
 * (dataset, model) with its population-level SP and EO gaps on the test pool, plus the
 * oracle decisions at δ = 0.05 that §5 states in words. A row reads the SP
 * decision-access cell of its pool; the EO columns read the pool's EO decision-access cell
 * (the oracle gap does not depend on the access regime). With `data`, a Data column
 * says what each row stands on.
 */
export function paperATable1(data?: PoolDataLabels): PaperTableLayout {
  const eo = (cell: CellSummary, all: readonly CellSummary[]) =>
    siblingCell(all, cell, ['pool', 'metric', 'access'], { metric: 'eo' });
  return {
    id: 'paper-a-table-1',
    title: 'Table 1. Population-level fairness gaps on the test datasets',
    caption:
      'Hard-decision SP and EO gaps of each model on its whole test pool (EO: the label = 1 rows), and the ' +
      'oracle decisions at δ = 0.05 (reject = violates).',
    experiments: [PAPER_A_EXPERIMENT],
    columns: [
      { name: 'dataset', label: 'Dataset', type: 'string' },
      { name: 'model', label: 'Model', type: 'string' },
      { name: 'sp_gap', label: 'SP Gap', type: 'number', digits: 4, value: (cell) => cell.values.oracle_gap ?? null },
      {
        name: 'eo_gap',
        label: 'EO Gap',
        type: 'number',
        digits: 4,
        value: (cell, all) => eo(cell, all)?.values.oracle_gap ?? null,
      },
      {
        name: 'sp_oracle',
        label: 'SP oracle (δ = 0.05)',
        type: 'string',
        value: (cell) => cell.values.oracle_decision ?? null,
      },
      {
        name: 'eo_oracle',
        label: 'EO oracle (δ = 0.05)',
        type: 'string',
        value: (cell, all) => eo(cell, all)?.values.oracle_decision ?? null,
      },
      { name: 'sp_pool', label: 'SP pool', type: 'number', digits: 0, value: (cell) => cell.values.pool_size ?? null },
      {
        name: 'eo_pool',
        label: 'EO pool',
        type: 'number',
        digits: 0,
        value: (cell, all) => eo(cell, all)?.values.pool_size ?? null,
      },
      ...(data ? [poolDataColumn(data)] : []),
    ],
    rows: PAPER_A_POOLS.map((pool) => ({
      labels: { dataset: pool.datasetLabel, model: pool.modelLabel },
      where: { pool: pool.name, metric: 'sp', access: 'decision' },
    })),
  };
}

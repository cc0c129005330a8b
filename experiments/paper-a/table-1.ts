import type { PaperTableLayout } from '../../src/report/paper-table.js';
import { PAPER_A_EXPERIMENT, PAPER_A_POOLS } from './pools.js';
import { paperAPoolData, type PoolDataLabels } from './pool-data-labels.js';
import { paperASiblingCells, type SiblingCells } from './sibling-cells.js';

/**
 * paperATable1Layout(siblings) lays out paper A Table 1 as printed: one row per
 * (dataset, model) with its population-level SP and EO gaps on the test pool, plus the
 * oracle decisions at δ = 0.05 that §5 states in words. A row reads the SP
 * decision-access cell of its pool; the EO columns read the EO cell through `siblings`
 * (the oracle gap does not depend on the access regime). With `data`, a Data column
 * says what each row stands on.
 */
export function paperATable1Layout(siblings: SiblingCells, data?: PoolDataLabels): PaperTableLayout {
  const eo = (cell: Parameters<SiblingCells['sibling']>[0]) => siblings.sibling(cell, { metric: 'eo' });
  return {
    id: 'paper-a-table-1',
    title: 'Table 1. Population-level fairness gaps on the test datasets',
    caption:
      'Hard-decision SP and EO gaps of each model on its whole test pool (EO: the label = 1 rows), and the oracle decisions at δ = 0.05 (reject = violates).',
    experiments: [PAPER_A_EXPERIMENT],
    columns: [
      { name: 'dataset', label: 'Dataset', type: 'string' },
      { name: 'model', label: 'Model', type: 'string' },
      { name: 'sp_gap', label: 'SP Gap', type: 'number', digits: 4, value: (cell) => cell.values.oracle_gap ?? null },
      { name: 'eo_gap', label: 'EO Gap', type: 'number', digits: 4, value: (cell) => eo(cell)?.values.oracle_gap ?? null },
      { name: 'sp_oracle', label: 'SP oracle (δ = 0.05)', type: 'string', value: (cell) => cell.values.oracle_decision ?? null },
      { name: 'eo_oracle', label: 'EO oracle (δ = 0.05)', type: 'string', value: (cell) => eo(cell)?.values.oracle_decision ?? null },
      { name: 'sp_pool', label: 'SP pool', type: 'number', digits: 0, value: (cell) => cell.values.pool_size ?? null },
      { name: 'eo_pool', label: 'EO pool', type: 'number', digits: 0, value: (cell) => eo(cell)?.values.pool_size ?? null },
      ...(data ? [data.column()] : []),
    ],
    rows: PAPER_A_POOLS.map((pool) => ({
      labels: { dataset: pool.datasetLabel, model: pool.modelLabel },
      where: { pool: pool.name, metric: 'sp', access: 'decision' },
    })),
  };
}

/** Paper A Table 1, reading EO cells through the pipeline's lookup. */
export const paperATable1: PaperTableLayout = paperATable1Layout(paperASiblingCells, paperAPoolData);

import type { PaperTableLayout } from '../../src/report/paper-table.js';
import { PAPER_A_EXPERIMENT, PAPER_A_POOLS } from './pools.js';

/**
 * Paper A Table 1: population-level SP and EO gaps of the eight models on the test
 * pool, with the oracle decision at δ = 0.05 (which §5 states in words). Each printed
 * row (dataset, model) becomes two rows here, one per metric, because a layout row
 * reads one summarised cell; values come from the decision-access cell of that pool
 * and metric (the oracle gap does not depend on the access regime).
 */
export const paperATable1: PaperTableLayout = {
  id: 'paper-a-table-1',
  title: 'Table 1. Population-level fairness gaps on the test datasets',
  caption:
    'Hard-decision SP and EO gaps of each model on its whole test pool (EO: the label = 1 rows), and the oracle decision at δ = 0.05 (reject = violates).',
  experiments: [PAPER_A_EXPERIMENT],
  columns: [
    { name: 'dataset', label: 'Dataset', type: 'string' },
    { name: 'model', label: 'Model', type: 'string' },
    { name: 'metric', label: 'Metric', type: 'string' },
    { name: 'gap', label: 'Gap', type: 'number', digits: 4, value: (cell) => cell.values.oracle_gap ?? null },
    { name: 'oracle', label: 'Oracle (δ = 0.05)', type: 'string', value: (cell) => cell.values.oracle_decision ?? null },
    { name: 'pool_size', label: 'Pool size', type: 'number', digits: 0, value: (cell) => cell.values.pool_size ?? null },
  ],
  rows: PAPER_A_POOLS.flatMap((pool) =>
    (['sp', 'eo'] as const).map((metric) => ({
      labels: { dataset: pool.datasetLabel, model: pool.modelLabel, metric: metric.toUpperCase() },
      where: { pool: pool.name, metric, access: 'decision' },
    })),
  ),
};

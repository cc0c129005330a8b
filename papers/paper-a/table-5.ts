import type { PaperTableLayout } from '../../src/report/paper-table.js';
import { type PoolDataLabels, poolDataColumn } from './pool-data-labels.js';
import { PAPER_A_EXPERIMENT } from './pools.js';
import { PAPER_A_TABLE_4_ROWS } from './table-4.js';

/**
 * Paper A Table 5: frequencies of reject / accept / inconclusive of the decision-only
 * sequential auditor, with the oracle decision, over the replicates (20 in the paper).
 * Same rows as Table 4, in the same order; with `data`, a Data column.
 */
export function paperATable5(data?: PoolDataLabels): PaperTableLayout {
  return {
    id: 'paper-a-table-5',
    title: 'Table 5. Empirical decision behavior of the sequential auditor (decision-only)',
    caption: 'Frequencies across the replicates (20 in the paper). Oracle = the hard-decision decision at δ = 0.05.',
    experiments: [PAPER_A_EXPERIMENT],
    columns: [
      { name: 'dataset', label: 'Dataset', type: 'string' },
      { name: 'model', label: 'Model', type: 'string' },
      { name: 'metric', label: 'Metric', type: 'string' },
      { name: 'oracle', label: 'Oracle', type: 'string', value: (cell) => cell.values.oracle_decision ?? null },
      {
        name: 'reject',
        label: 'Reject',
        type: 'number',
        digits: 2,
        value: (cell) => cell.values.frequency_reject ?? null,
      },
      {
        name: 'accept',
        label: 'Accept',
        type: 'number',
        digits: 2,
        value: (cell) => cell.values.frequency_accept ?? null,
      },
      {
        name: 'inconclusive',
        label: 'Inconclusive',
        type: 'number',
        digits: 2,
        value: (cell) => cell.values.frequency_inconclusive ?? null,
      },
      ...(data ? [poolDataColumn(data)] : []),
    ],
    rows: PAPER_A_TABLE_4_ROWS,
  };
}

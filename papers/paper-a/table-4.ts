import type { PaperTableLayout, PaperTableRow } from '../../src/report/paper-table.js';
import { type PoolDataLabels, poolDataColumn } from './pool-data-labels.js';
import { PAPER_A_BASE_POOLS, PAPER_A_EXPERIMENT } from './pools.js';

/**
 * Paper A Table 4: sequential vs fixed-sample decision-only audits. Accuracy is
 * against the oracle decision with inconclusive counted wrong; the fixed-sample
 * baseline decides on the first min(B, pool) rows of the same order (B for SP,
 * min(B, N_{Y=1}) for EO). The paper prints Sequential and Fixed as two rows of one
 * (dataset, model, metric); both read the same cell, so they sit side by side here.
 * With `data`, a Data column says what each row stands on.
 */
export function paperATable4(data?: PoolDataLabels): PaperTableLayout {
  return {
    id: 'paper-a-table-4',
    title: 'Table 4. Sequential vs. fixed-sample auditing (decision-only)',
    caption:
      'Accuracy relative to the oracle decision, inconclusive counted as incorrect. Samples: sequential mean ± ' +
      'std of queries; fixed = min(B, pool) (B = 4000 for SP, min(B, N_{Y=1}) for EO).',
    experiments: [PAPER_A_EXPERIMENT],
    columns: [
      { name: 'dataset', label: 'Dataset', type: 'string' },
      { name: 'model', label: 'Model', type: 'string' },
      { name: 'metric', label: 'Metric', type: 'string' },
      {
        name: 'sequential_accuracy',
        label: 'Sequential accuracy',
        type: 'number',
        digits: 2,
        value: (cell) => cell.values.accuracy ?? null,
      },
      {
        name: 'sequential_samples',
        label: 'Sequential samples',
        type: 'string',
        value: (cell) =>
          typeof cell.values.queries_mean === 'number'
            ? `${cell.values.queries_mean.toFixed(0)} ± ${Number(cell.values.queries_std).toFixed(0)}`
            : null,
      },
      {
        name: 'fixed_accuracy',
        label: 'Fixed accuracy',
        type: 'number',
        digits: 2,
        value: (cell) => cell.values.fixed_accuracy ?? null,
      },
      {
        name: 'fixed_samples',
        label: 'Fixed samples',
        type: 'number',
        digits: 0,
        value: (cell) => cell.values.fixed_samples_mean ?? null,
      },
      ...(data ? [poolDataColumn(data)] : []),
    ],
    rows: PAPER_A_TABLE_4_ROWS,
  };
}

/** The rows of Tables 4 and 5: base model × metric, decision access, in the printed order. */
export const PAPER_A_TABLE_4_ROWS: PaperTableRow[] = PAPER_A_BASE_POOLS.flatMap((pool) =>
  (['sp', 'eo'] as const).map((metric) => ({
    labels: { dataset: pool.datasetLabel, model: pool.modelLabel, metric: metric.toUpperCase() },
    where: { pool: pool.name, metric, access: 'decision' },
  })),
).sort((a, b) => rowOrder(a.labels) - rowOrder(b.labels));

/** Table 4's printed order: dataset, then metric (SP before EO), then model. */
function rowOrder(labels: Record<string, string>): number {
  return (
    (labels.dataset === 'ACS' ? 0 : 4) + (labels.metric === 'SP' ? 0 : 2) + (labels.model === 'Robust-Base' ? 0 : 1)
  );
}

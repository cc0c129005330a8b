import type { CellSummary } from '../../src/report/cell-results.js';
import type { PaperTableLayout } from '../../src/report/paper-table.js';
import { PAPER_A_BASE_POOLS, PAPER_A_EXPERIMENT } from './pools.js';

/** The three access regimes of §4.3, in the column order of Tables 2 and 3. */
export const ACCESS_REGIMES = [
  { access: 'decision', label: 'Decision-only (labels)' },
  { access: 'score', label: 'Score access (scores)' },
  { access: 'logit', label: 'Logit access (logits)' },
] as const;

const capitalised = (text: string | number | null | undefined): string | null =>
  typeof text === 'string' && text.length > 0 ? text[0].toUpperCase() + text.slice(1) : null;

/** "Reject, 2349 ± 1345": a decision and mean ± std of queries, as Tables 2 and 3 print them. */
export function decisionAndQueries(cell: CellSummary): string | null {
  const decision = capitalised(cell.values.decision_mode);
  const mean = cell.values.queries_mean;
  const std = cell.values.queries_std;
  if (decision === null || typeof mean !== 'number') return null;
  const spread = typeof std === 'number' && Number.isFinite(std) ? ` ± ${std.toFixed(0)}` : '';
  return `${decision}, ${mean.toFixed(0)}${spread}`;
}

/**
 * accessTable(metric, id, title, caption) lays out Table 2 (SP) or Table 3 (EO): for
 * each base model and access regime, the oracle gap, the most frequent decision and
 * mean ± std of queries over the replicates, plus the proxy gap that the score and
 * logit audits test. One row per (dataset, model, access): the paper prints the
 * three regimes side by side in one row.
 */
export function accessTable(metric: 'sp' | 'eo', id: string, title: string, caption: string): PaperTableLayout {
  return {
    id,
    title,
    caption,
    experiments: [PAPER_A_EXPERIMENT],
    columns: [
      { name: 'dataset', label: 'Dataset', type: 'string' },
      { name: 'model', label: 'Model', type: 'string' },
      { name: 'access', label: 'Access', type: 'string' },
      { name: 'oracle_gap', label: `Oracle ${metric.toUpperCase()} gap`, type: 'number', digits: 4, value: (cell) => cell.values.oracle_gap ?? null },
      { name: 'entry', label: 'Decision, mean queries ± std', type: 'string', value: decisionAndQueries },
      { name: 'decision', label: 'Decision', type: 'string', value: (cell) => cell.values.decision_mode ?? null },
      { name: 'queries_mean', label: 'Mean queries', type: 'number', digits: 1, value: (cell) => cell.values.queries_mean ?? null },
      { name: 'queries_std', label: 'Std queries', type: 'number', digits: 1, value: (cell) => cell.values.queries_std ?? null },
      { name: 'proxy_gap', label: 'Proxy gap', type: 'number', digits: 4, value: (cell) => cell.values.proxy_gap ?? null },
    ],
    rows: PAPER_A_BASE_POOLS.flatMap((pool) =>
      ACCESS_REGIMES.map(({ access, label }) => ({
        labels: { dataset: pool.datasetLabel, model: pool.modelLabel, access: label },
        where: { pool: pool.name, metric, access },
      })),
    ),
  };
}

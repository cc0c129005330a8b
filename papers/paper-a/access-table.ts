import type { CellSummary } from '../../src/report/cell-results.js';
import { type PaperTableLayout, siblingCell } from '../../src/report/paper-table.js';
import { type PoolDataLabels, poolDataColumn } from './pool-data-labels.js';
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
export function decisionAndQueries(cell: CellSummary | undefined): string | null {
  if (cell === undefined) return null;
  const decision = capitalised(cell.values.decision_mode);
  const mean = cell.values.queries_mean;
  const std = cell.values.queries_std;
  if (decision === null || typeof mean !== 'number') return null;
  const spread = typeof std === 'number' && Number.isFinite(std) ? ` ± ${std.toFixed(0)}` : '';
  return `${decision}, ${mean.toFixed(0)}${spread}`;
}

/**
 * accessTable(metric, id, title, caption, data?) lays out Table 2 (SP) or Table 3
 * (EO) as printed: one row per base model with the oracle gap and, per access regime,
 * the most frequent decision and mean ± std of queries over the replicates; then the
 * proxy gaps that the score and logit audits test (not printed in the paper). A row
 * reads its decision-access cell; the score and logit columns read the sibling cells of the same pool and metric.
 * With `data`, a Data column says what each row stands on.
 */
export function accessTable(
  metric: 'sp' | 'eo',
  id: string,
  title: string,
  caption: string,
  data?: PoolDataLabels,
): PaperTableLayout {
  const at = (cell: CellSummary, all: readonly CellSummary[], access: string) =>
    access === 'decision' ? cell : siblingCell(all, cell, ['pool', 'metric', 'access'], { access });
  return {
    id,
    title,
    caption,
    experiments: [PAPER_A_EXPERIMENT],
    columns: [
      { name: 'dataset', label: 'Dataset', type: 'string' },
      { name: 'model', label: 'Model', type: 'string' },
      {
        name: 'oracle_gap',
        label: `Oracle ${metric.toUpperCase()} Gap`,
        type: 'number',
        digits: 4,
        value: (cell) => cell.values.oracle_gap ?? null,
      },
      ...ACCESS_REGIMES.map(({ access, label }) => ({
        name: access,
        label,
        type: 'string' as const,
        value: (cell: CellSummary, all: readonly CellSummary[]) => decisionAndQueries(at(cell, all, access)),
      })),
      ...(['score', 'logit'] as const).map((access) => ({
        name: `${access}_proxy_gap`,
        label: `${access === 'score' ? 'Score' : 'Logit'} proxy gap`,
        type: 'number' as const,
        digits: 4,
        description:
          `|mean ${access}_a − mean ${access}_b| over the ${metric.toUpperCase()} pool: what ` +
          `the ${access} audit tests against its tolerance`,
        value: (cell: CellSummary, all: readonly CellSummary[]) => at(cell, all, access)?.values.proxy_gap ?? null,
      })),
      ...(data ? [poolDataColumn(data)] : []),
    ],
    rows: PAPER_A_BASE_POOLS.map((pool) => ({
      labels: { dataset: pool.datasetLabel, model: pool.modelLabel },
      where: { pool: pool.name, metric, access: 'decision' },
    })),
  };
}

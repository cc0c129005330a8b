import type { AuditPool } from '../../src/audit/pool.js';
import type { CellSummary } from '../../src/report/cell-results.js';
import type { KindReporter } from '../../src/report/kind-reporter.js';
import type { SummaryColumn, SummaryTable } from '../../src/report/summary-table.js';
import { type DatasetCharacteristics, table2Statistics } from './dataset-characteristics.js';

/** The settings of paper B's Table 2 that our own models reproduce (HateDay is gated). */
export const paperBModelSettings: ReadonlyArray<{ dataset: string; datasetLabel: string; attribute: string }> = [
  { dataset: 'ccd', datasetLabel: 'CCD', attribute: 'gender' },
  { dataset: 'ccd', datasetLabel: 'CCD', attribute: 'education' },
  { dataset: 'ccd', datasetLabel: 'CCD', attribute: 'marriage' },
  { dataset: 'ccd', datasetLabel: 'CCD', attribute: 'age' },
  { dataset: 'compas', datasetLabel: 'COMPAS', attribute: 'gender' },
  { dataset: 'compas', datasetLabel: 'COMPAS', attribute: 'race' },
];

/** A trained model's candidate set C and audit set S, as paper B §5 builds them. */
export interface CandidateSetModel {
  dataset: string;
  datasetLabel: string;
  attribute: string;
  /** Rows of the whole dataset (training part + candidate set). */
  datasetSize: number;
  /** The model's outputs on C (group, label, decision). */
  candidatePool: AuditPool;
  /** The model's outputs on S ⊂ C. */
  auditPool: AuditPool;
}

function groupCounts(pool: AuditPool): [number, number] {
  let one = 0;
  for (let i = 0; i < pool.size; i++) one += pool.group[i];
  return [pool.size - one, one];
}

/**
 * characteristicsOfModel(model) measures a Table 2 row on our own model: accuracy and
 * the demographic-parity gap |d_C,true| of its decisions on C, N, n, N_min, n_min and
 * N_min/N. O(N).
 */
export function characteristicsOfModel(model: CandidateSetModel): DatasetCharacteristics {
  const pool = model.candidatePool;
  const sizes = groupCounts(pool);
  const positives = [0, 0];
  let correct = 0;
  for (let i = 0; i < pool.size; i++) {
    positives[pool.group[i]] += pool.decision[i];
    if (pool.decision[i] === pool.label[i]) correct++;
  }
  const auditSizes = groupCounts(model.auditPool);
  const candidateMinority = Math.min(sizes[0], sizes[1]);
  return {
    dataset: model.dataset,
    datasetLabel: model.datasetLabel,
    attribute: model.attribute,
    datasetSize: model.datasetSize,
    accuracy: correct / pool.size,
    gap: Math.abs(positives[1] / sizes[1] - positives[0] / sizes[0]),
    candidateSetSize: pool.size,
    auditSetSize: model.auditPool.size,
    candidateMinoritySize: candidateMinority,
    auditMinoritySize: Math.min(auditSizes[0], auditSizes[1]),
    minorityShare: candidateMinority / pool.size,
    origin: 'reproduced',
  };
}

const columns: SummaryColumn[] = [
  { name: 'dataset', label: 'Dataset', type: 'string' },
  { name: 'attribute', label: 'Attribute', type: 'string' },
  {
    name: 'origin',
    label: 'From',
    type: 'string',
    description: 'reproduced: our boosted trees on our split; published: paper B Table 2',
  },
  { name: 'dataset_size', label: 'Size', type: 'number' },
  { name: 'accuracy', label: 'Acc', type: 'number', digits: 3 },
  { name: 'gap', label: '|d_C,true|', type: 'number', digits: 3 },
  { name: 'candidate_set_size', label: 'N', type: 'number' },
  { name: 'audit_set_size', label: 'n', type: 'number' },
  { name: 'candidate_minority_size', label: 'N_min', type: 'number' },
  { name: 'audit_minority_size', label: 'n_min', type: 'number' },
  { name: 'minority_share', label: 'N_min/N', type: 'number', digits: 3 },
];

/**
 * table2Values(row) is a Table 2 row's numbers keyed by their statistic names
 * (table2Statistics: dataset_size, accuracy, gap, N, n, N_min, n_min, N_min/N), as both
 * the written table and the comparison read them. O(1).
 */
export function table2Values(row: DatasetCharacteristics): Record<string, number> {
  return Object.fromEntries(
    (Object.keys(table2Statistics) as Array<keyof typeof table2Statistics>).map((field) => [
      table2Statistics[field],
      row[field],
    ]),
  );
}

/**
 * table2SummaryTable(rows, id, title) lays Table 2 out for the reporter's writers, one
 * row per dataset and attribute, saying where each row comes from. O(rows).
 */
export function table2SummaryTable(
  rows: readonly DatasetCharacteristics[],
  id: string,
  title: string,
  caption?: string,
): SummaryTable {
  return {
    id,
    title,
    caption,
    columns,
    rows: rows.map((row) => ({
      dataset: row.datasetLabel,
      attribute: row.attribute,
      origin: row.origin === 'published' ? 'published (paper B Table 2)' : 'reproduced',
      ...table2Values(row),
    })),
  };
}

/**
 * table2Summaries(rows) turns reproduced Table 2 rows into the reporter's cell
 * summaries (settings dataset and attribute; one value per Table 2 statistic), so
 * comparePublished can set them against papers/paper-b/published.json. O(rows).
 */
export function table2Summaries(rows: readonly DatasetCharacteristics[]): CellSummary[] {
  return rows.map((row) => ({
    cell: `${row.dataset}/${row.attribute}`,
    settings: { dataset: row.dataset, attribute: row.attribute },
    replicates: 1,
    values: table2Values(row),
  }));
}

/** The reporter's view of Table 2's rows (for comparePublished): measured once, no Monte Carlo error. */
export const table2ReportKind: KindReporter = {
  name: 'paper-b-table-2',
  description: "Paper B Table 2 measured on our own boosted trees' candidate and audit sets.",
  outcomeColumns: [],
  summaryColumns: columns.filter((column) => column.type === 'number'),
  summarizeCell: () => ({}),
};

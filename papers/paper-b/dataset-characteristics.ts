import { loadPublishedFile } from '../../src/report/published.js';
import { inputError } from '../../src/util/errors.js';
import { paperBPublishedPath } from './files.js';

/** One row of paper B's Table 2: a dataset and protected attribute as the audit sees it. */
export interface DatasetCharacteristics {
  /** Dataset key and printed name ("ccd", "CCD"). */
  dataset: string;
  datasetLabel: string;
  /** Protected attribute ("gender"). */
  attribute: string;
  /** Rows in the whole dataset (Table 2 "Size"). */
  datasetSize: number;
  /** Model accuracy on the candidate set C ("Acc"). */
  accuracy: number;
  /** |d_C,true|, the demographic-parity gap on C before manipulation. */
  gap: number;
  /** N = |C|, n = |S|, N_min, n_min. */
  candidateSetSize: number;
  auditSetSize: number;
  candidateMinoritySize: number;
  auditMinoritySize: number;
  /** N_min / N as printed (or computed). */
  minorityShare: number;
  /** Where the row comes from: "published" (paper B Table 2) or "reproduced" (our models). */
  origin: 'published' | 'reproduced';
}

/** The statistic names of Table 2's columns, as used in papers/paper-b/published.json. */
export const table2Statistics = {
  datasetSize: 'dataset_size',
  accuracy: 'accuracy',
  gap: 'gap',
  candidateSetSize: 'candidate_set_size',
  auditSetSize: 'audit_set_size',
  candidateMinoritySize: 'candidate_minority_size',
  auditMinoritySize: 'audit_minority_size',
  minorityShare: 'minority_share',
} as const;

/**
 * publishedTable2(path?) reads paper B's Table 2 from its published cells
 * (papers/paper-b/published.json, the single copy of those numbers) and
 * returns one DatasetCharacteristics per printed row, in the paper's order.
 * Throws InputError when the file is malformed or a row lacks a column. O(cells).
 */
export function publishedTable2(path: string = paperBPublishedPath()): DatasetCharacteristics[] {
  const file = loadPublishedFile(path);
  const rows = new Map<string, Map<string, number>>();
  const labels = new Map<string, string>();
  for (const cell of file.cells) {
    if (cell.table !== 'Table 2') continue;
    if (cell.where === undefined || typeof cell.row === 'string' || cell.statistic === undefined) {
      throw inputError({
        where: `${path}: ${cell.id}`,
        expected: 'a Table 2 cell with where, a row object and a statistic',
        found: cell.row,
      });
    }
    const key = `${cell.where.dataset}/${cell.where.attribute}`;
    if (!rows.has(key)) {
      rows.set(key, new Map());
      labels.set(key, cell.row.dataset ?? String(cell.where.dataset));
    }
    rows.get(key)!.set(cell.statistic, Number(cell.value));
  }
  const result: DatasetCharacteristics[] = [];
  for (const [key, values] of rows) {
    const [dataset, attribute] = key.split('/');
    const read = (statistic: string): number => {
      const value = values.get(statistic);
      if (value === undefined) {
        throw inputError({
          where: `${path}: Table 2 row ${key}`,
          expected: `a cell with statistic ${statistic}`,
          found: undefined,
        });
      }
      return value;
    };
    result.push({
      dataset,
      datasetLabel: labels.get(key)!,
      attribute,
      datasetSize: read(table2Statistics.datasetSize),
      accuracy: read(table2Statistics.accuracy),
      gap: read(table2Statistics.gap),
      candidateSetSize: read(table2Statistics.candidateSetSize),
      auditSetSize: read(table2Statistics.auditSetSize),
      candidateMinoritySize: read(table2Statistics.candidateMinoritySize),
      auditMinoritySize: read(table2Statistics.auditMinoritySize),
      minorityShare: read(table2Statistics.minorityShare),
      origin: 'published',
    });
  }
  return result;
}

import type { DatasetTable } from './dataset-table.js';

/** One column in a summary: its name, kind and (categorical) number of levels. */
export interface ColumnSummary {
  readonly name: string;
  readonly kind: 'numeric' | 'categorical';
  readonly levels: number | null;
}

/** One protected attribute in a summary: group b's definition, size and share. */
export interface GroupSummary {
  readonly name: string;
  readonly groupB: string;
  readonly groupBRows: number;
  readonly groupBShare: number;
  /** Label rates in group a and group b (NaN for an empty group). */
  readonly labelRateA: number;
  readonly labelRateB: number;
}

/** What `fairaudit data info NAME` shows. */
export interface DatasetSummary {
  readonly name: string;
  readonly form: string;
  readonly rows: number;
  readonly labelMeaning: string;
  readonly positives: number;
  readonly labelRate: number;
  readonly columns: readonly ColumnSummary[];
  readonly groups: readonly GroupSummary[];
  readonly files: DatasetTable['files'];
}

/**
 * summarizeDataset(table) counts rows, positives, each protected attribute's group b
 * and the label rate per group. O(rows × attributes).
 */
export function summarizeDataset(table: DatasetTable): DatasetSummary {
  let positives = 0;
  for (const value of table.label) positives += value;
  const groups = table.protectedAttributes.map((attribute) => {
    const rows = [0, 0];
    const positive = [0, 0];
    for (let i = 0; i < table.rows; i++) {
      rows[attribute.group[i]]++;
      positive[attribute.group[i]] += table.label[i];
    }
    return {
      name: attribute.name,
      groupB: attribute.groupB,
      groupBRows: rows[1],
      groupBShare: table.rows > 0 ? rows[1] / table.rows : Number.NaN,
      labelRateA: rows[0] > 0 ? positive[0] / rows[0] : Number.NaN,
      labelRateB: rows[1] > 0 ? positive[1] / rows[1] : Number.NaN,
    };
  });
  return {
    name: table.name,
    form: table.form,
    rows: table.rows,
    labelMeaning: table.labelMeaning,
    positives,
    labelRate: table.rows > 0 ? positives / table.rows : Number.NaN,
    columns: table.columns.map((column) => ({
      name: column.name,
      kind: column.kind,
      levels: column.kind === 'categorical' ? column.levels.length : null,
    })),
    groups,
    files: table.files,
  };
}

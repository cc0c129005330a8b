import { join } from 'node:path';
import { writeFileAtomic } from '../util/atomic-write.js';
import { inputError } from '../util/errors.js';
import { type LoadDatasetOptions, loadDataset } from './load-dataset.js';
import { encodeNpy } from './npy-array.js';
import { type PreparedSplit, prepareSplit, type SplitOptions } from './prepare-split.js';
import type { TabularData } from './tabular.js';

/** The file formats `fairaudit data export` writes. */
export const SPLIT_EXPORT_FORMATS = ['npy', 'csv'] as const;
export type SplitExportFormat = (typeof SPLIT_EXPORT_FORMATS)[number];

/** One file written by exportSplit. */
export interface ExportedFile {
  readonly path: string;
  readonly bytes: number;
  readonly holds: string;
}

/** Options of exportDatasetSplit: where the dataset is, and the output format. */
export interface ExportSplitOptions extends LoadDatasetOptions {
  readonly format?: SplitExportFormat;
}

function csvField(text: string): string {
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * The rows of one part as CSV: columns row (the raw dataset's row index), group, label,
 * then [audit (0/1) when given], then one column per feature. Numbers are JavaScript's
 * shortest round-trip decimals, so a reader gets the exact float64 values back.
 */
function partCsv(part: TabularData, audit: Uint8Array | null): string {
  const header = ['row', 'group', 'label', ...(audit === null ? [] : ['audit']), ...part.featureNames].map(csvField);
  const lines = [header.join(',')];
  for (let r = 0; r < part.rows; r++) {
    const cells: Array<string | number> = [part.rowIndex[r], part.group[r], part.label[r]];
    if (audit !== null) cells.push(audit[r]);
    const base = r * part.columns;
    for (let c = 0; c < part.columns; c++) cells.push(part.features[base + c]);
    lines.push(cells.join(','));
  }
  return `${lines.join('\n')}\n`;
}

function positives(values: Uint8Array): number {
  let total = 0;
  for (let i = 0; i < values.length; i++) total += values[i];
  return total;
}

/**
 * exportSplit(split, describe, directory, format) writes a prepared split (the encoded
 * training part and held-out part exactly as the models see them) to `directory`, for
 * training another toolkit's models on the same rows:
 * - npy: train-features.npy (float64, rows × columns), train-label.npy and
 *   train-group.npy (uint8), train-row.npy (int32, the raw dataset's row index), the same
 *   four for held-out-*, and for paper B held-out-audit.npy (uint8: 1 = in the audit set);
 * - csv: train.csv and held-out.csv with columns row, group, label, [audit], features;
 * - split.json in both: `describe` (dataset files, settings) plus the split's settings,
 *   feature names, row and positive counts, and the files written.
 * Every file is written atomically. O(rows × columns).
 */
export function exportSplit(
  split: PreparedSplit,
  describe: Record<string, unknown>,
  directory: string,
  format: SplitExportFormat,
): ExportedFile[] {
  if (!(SPLIT_EXPORT_FORMATS as readonly string[]).includes(format)) {
    throw inputError({ where: '--format', expected: SPLIT_EXPORT_FORMATS.join(' or '), found: format });
  }
  const files: ExportedFile[] = [];
  const write = (name: string, data: string | Uint8Array, holds: string) => {
    const path = join(directory, name);
    writeFileAtomic(path, data);
    files.push({ path, bytes: typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength, holds });
  };
  let audit: Uint8Array | null = null;
  if (split.auditRows !== null) {
    audit = new Uint8Array(split.heldOut.rows);
    for (const position of split.auditRows) audit[position] = 1;
  }
  const parts = [
    { name: 'train', part: split.train, audit: null },
    { name: 'held-out', part: split.heldOut, audit },
  ];
  for (const { name, part, audit: mask } of parts) {
    if (format === 'npy') {
      write(
        `${name}-features.npy`,
        encodeNpy(part.features, [part.rows, part.columns]),
        `${name}: features, float64 (${part.rows}, ${part.columns})`,
      );
      write(`${name}-label.npy`, encodeNpy(part.label, [part.rows]), `${name}: label, uint8`);
      write(
        `${name}-group.npy`,
        encodeNpy(part.group, [part.rows]),
        `${name}: protected group (1 = ${split.groupB}), uint8`,
      );
      write(`${name}-row.npy`, encodeNpy(part.rowIndex, [part.rows]), `${name}: the raw dataset's row index, int32`);
      if (mask !== null)
        write(`${name}-audit.npy`, encodeNpy(mask, [part.rows]), `${name}: 1 = in the audit set, uint8`);
    } else {
      write(
        `${name}.csv`,
        partCsv(part, mask),
        `${name}: row, group, label${mask === null ? '' : ', audit'}, ${part.columns} features`,
      );
    }
  }
  const summary = (part: TabularData) => ({
    rows: part.rows,
    positives: positives(part.label),
    groupB: positives(part.group),
  });
  const description = {
    format: 'fairaudit-split/1',
    ...describe,
    scheme: split.scheme,
    seed: split.seed,
    protectedAttribute: split.protectedAttribute,
    groupB: split.groupB,
    labelMeaning: split.labelMeaning,
    heldOutFraction: split.heldOutFraction,
    auditFraction: split.auditFraction,
    stratifyBy: split.stratifyBy,
    droppedColumns: split.droppedColumns,
    featureNames: split.train.featureNames,
    train: summary(split.train),
    heldOut: summary(split.heldOut),
    auditRows: split.auditRows?.length ?? null,
    files: files.map((file) => ({ name: file.path.slice(directory.length + 1), holds: file.holds })),
  };
  write('split.json', `${JSON.stringify(description, null, 2)}\n`, 'the split: settings, feature names, counts, files');
  return files;
}

/**
 * exportDatasetSplit(dataset, splitOptions, directory, options) loads a dataset
 * (loadDataset: mirror or downloads, checksums verified), splits and encodes it as
 * `fairaudit models train` does (prepareSplit), and writes it with exportSplit. The
 * same dataset files and split settings give the same rows and features the models are
 * trained and scored on. Throws InputError for a missing or malformed dataset, a bad
 * split setting or an unknown format. O(rows × columns).
 */
export async function exportDatasetSplit(
  dataset: string,
  splitOptions: SplitOptions,
  directory: string,
  options: ExportSplitOptions = {},
): Promise<ExportedFile[]> {
  const { format = 'npy', ...loadOptions } = options;
  const table = await loadDataset(dataset, loadOptions);
  const split = prepareSplit(table, splitOptions);
  const describe = {
    dataset: table.name,
    form: table.form,
    datasetFiles: table.files.map((file) => ({ name: file.name, size: file.size, sha256: file.sha256 })),
    standardized: splitOptions.standardize ?? true,
  };
  return exportSplit(split, describe, directory, format);
}

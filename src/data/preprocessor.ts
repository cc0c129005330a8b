import type { RawColumn } from './dataset-table.js';
import type { TabularData } from './tabular.js';

/** How one numeric column is standardised: (x − mean) / scale. */
export interface NumericEncoding {
  readonly name: string;
  readonly kind: 'numeric';
  readonly mean: number;
  /** The training rows' population standard deviation (1 when it is 0 or standardising is off). */
  readonly scale: number;
}

/** How one categorical column is one-hot encoded: one feature per level seen in training. */
export interface CategoricalEncoding {
  readonly name: string;
  readonly kind: 'categorical';
  /** The levels seen in the training rows, in sorted order; others encode as all zeros. */
  readonly levels: readonly string[];
  /** Per raw code, the position of its one-hot feature among this column's, or −1. */
  readonly slotOfCode: Int32Array;
}

export type ColumnEncoding = NumericEncoding | CategoricalEncoding;

/** A preprocessing fitted on training rows, applied unchanged to every other part. */
export interface Preprocessor {
  readonly encodings: readonly ColumnEncoding[];
  /** Output feature names: numeric columns by name, one-hot features as "column=level". */
  readonly featureNames: readonly string[];
}

export interface PreprocessorOptions {
  /** Standardise numeric columns (default true); false leaves them as they are. */
  readonly standardize?: boolean;
}

/**
 * fitPreprocessor(columns, trainingRows, options) learns paper A's preprocessing from
 * the training rows only: each numeric column's mean and population standard
 * deviation (scikit-learn's StandardScaler), each categorical column's levels
 * (OneHotEncoder with unknown levels ignored). O(rows × columns).
 */
export function fitPreprocessor(
  columns: readonly RawColumn[],
  trainingRows: Int32Array,
  options: PreprocessorOptions = {},
): Preprocessor {
  const standardize = options.standardize ?? true;
  const encodings: ColumnEncoding[] = [];
  const featureNames: string[] = [];
  const n = trainingRows.length;
  for (const column of columns) {
    if (column.kind === 'numeric') {
      let mean = 0;
      let scale = 1;
      if (standardize && n > 0) {
        let sum = 0;
        for (let i = 0; i < n; i++) sum += column.values[trainingRows[i]];
        mean = sum / n;
        let squares = 0;
        for (let i = 0; i < n; i++) {
          const deviation = column.values[trainingRows[i]] - mean;
          squares += deviation * deviation;
        }
        const deviation = Math.sqrt(squares / n);
        scale = deviation > 0 ? deviation : 1;
      }
      encodings.push({ name: column.name, kind: 'numeric', mean, scale });
      featureNames.push(column.name);
    } else {
      const seen = new Uint8Array(column.levels.length);
      for (let i = 0; i < n; i++) seen[column.codes[trainingRows[i]]] = 1;
      const slotOfCode = new Int32Array(column.levels.length).fill(-1);
      const levels: string[] = [];
      for (let code = 0; code < column.levels.length; code++) {
        if (seen[code] === 1) {
          slotOfCode[code] = levels.length;
          levels.push(column.levels[code]);
          featureNames.push(`${column.name}=${column.levels[code]}`);
        }
      }
      encodings.push({ name: column.name, kind: 'categorical', levels, slotOfCode });
    }
  }
  return { encodings, featureNames };
}

/**
 * applyPreprocessor(preprocessor, columns, rows, label, group, rowIndex) encodes the
 * given rows into TabularData (row-major features). `columns` must be the columns the
 * preprocessor was fitted on, in the same order. O(rows × features).
 */
export function applyPreprocessor(
  preprocessor: Preprocessor,
  columns: readonly RawColumn[],
  rows: Int32Array,
  label: Uint8Array,
  group: Uint8Array,
  rowIndex: Int32Array,
): TabularData {
  const width = preprocessor.featureNames.length;
  const features = new Float64Array(rows.length * width);
  let offset = 0;
  preprocessor.encodings.forEach((encoding, c) => {
    const column = columns[c];
    if (encoding.kind === 'numeric' && column.kind === 'numeric') {
      for (let i = 0; i < rows.length; i++) {
        features[i * width + offset] = (column.values[rows[i]] - encoding.mean) / encoding.scale;
      }
      offset += 1;
    } else if (encoding.kind === 'categorical' && column.kind === 'categorical') {
      for (let i = 0; i < rows.length; i++) {
        const slot = encoding.slotOfCode[column.codes[rows[i]]];
        if (slot >= 0) features[i * width + offset + slot] = 1;
      }
      offset += encoding.levels.length;
    } else {
      throw new Error(`applyPreprocessor: column ${column.name} is not the kind the preprocessor was fitted on`);
    }
  });
  const pick = <T extends Uint8Array | Int32Array>(source: T, make: (n: number) => T): T => {
    const out = make(rows.length);
    for (let i = 0; i < rows.length; i++) out[i] = source[rows[i]];
    return out;
  };
  return {
    features,
    rows: rows.length,
    columns: width,
    featureNames: preprocessor.featureNames,
    label: pick(label, (n) => new Uint8Array(n)),
    group: pick(group, (n) => new Uint8Array(n)),
    rowIndex: pick(rowIndex, (n) => new Int32Array(n)),
  };
}

/**
 * A dataset as loaded from its files, before any split or preprocessing: the
 * candidate feature columns (numeric or categorical), the 0/1 label, and one 0/1
 * group vector per protected attribute the papers use. loadDataset returns it;
 * prepareSplit turns it into TabularData for the models.
 */

/** A numeric feature column. */
export interface NumericColumn {
  readonly name: string;
  readonly kind: 'numeric';
  readonly values: Float64Array;
}

/** A categorical feature column: codes index into levels (sorted). */
export interface CategoricalColumn {
  readonly name: string;
  readonly kind: 'categorical';
  readonly codes: Int32Array;
  readonly levels: readonly string[];
}

export type RawColumn = NumericColumn | CategoricalColumn;

/** One protected attribute: which rows are in group b (1) and which in group a (0). */
export interface ProtectedAttribute {
  /** The attribute's name as configs use it: "sex", "gender", "race", "education", ... */
  readonly name: string;
  /** How group b is defined, in words ("sex = Female"). */
  readonly groupB: string;
  /** The feature column the attribute is derived from (dropped from the features when requested). */
  readonly sourceColumn: string;
  /** 1 = group b, 0 = group a, per row. */
  readonly group: Uint8Array;
}

/** A file a dataset was read from, with how it was verified. */
export interface SourceFile {
  readonly name: string;
  readonly path: string;
  readonly size: number;
  /** The file's sha256 as computed, or null when it was not hashed. */
  readonly sha256: string | null;
  /** "verified" when it matched the manifest, "unknown" when the manifest has no checksum. */
  readonly check: 'verified' | 'unknown';
}

export interface DatasetTable {
  /** The registry name ("adult", "compas", ...). */
  readonly name: string;
  readonly rows: number;
  /** Feature columns in the dataset's own order (protected-attribute source columns included). */
  readonly columns: readonly RawColumn[];
  /** Ground truth 0/1. */
  readonly label: Uint8Array;
  /** What label = 1 means, in words ("income > 50K"). */
  readonly labelMeaning: string;
  /** The protected attributes the papers use; the first is the default. */
  readonly protectedAttributes: readonly ProtectedAttribute[];
  /** Each row's index in the raw file(s) before filtering, 0-based, in file order. */
  readonly rowIndex: Int32Array;
  /** Whether the papers drop a protected attribute's source column from the features. */
  readonly dropsProtectedColumn: boolean;
  /** Which form of the dataset was read (e.g. "uci", "csv-two-headers"). */
  readonly form: string;
  readonly files: readonly SourceFile[];
}

/**
 * categoricalColumn(name, values) codes string values against their sorted distinct
 * levels. O(n log k) for k levels.
 */
export function categoricalColumn(name: string, values: readonly string[]): CategoricalColumn {
  const levels = [...new Set(values)].sort();
  const codeOf = new Map(levels.map((level, code) => [level, code]));
  const codes = new Int32Array(values.length);
  for (let i = 0; i < values.length; i++) codes[i] = codeOf.get(values[i]) as number;
  return { name, kind: 'categorical', codes, levels };
}

/** numericColumn(name, values) wraps parsed numbers as a column. */
export function numericColumn(name: string, values: ArrayLike<number>): NumericColumn {
  return { name, kind: 'numeric', values: Float64Array.from(values) };
}

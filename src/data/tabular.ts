/**
 * A dataset after preprocessing, ready for a model: a dense row-major feature
 * matrix plus the label and the protected group of every row. The contract between
 * src/data (which builds it) and src/models (which trains on it).
 */
export interface TabularData {
  /** Row-major features: row i is features[i * columns .. (i + 1) * columns). */
  readonly features: Float64Array;
  readonly rows: number;
  readonly columns: number;
  readonly featureNames: readonly string[];
  /** Ground truth label, 0/1. */
  readonly label: Uint8Array;
  /** Protected attribute, 0 = group a, 1 = group b. */
  readonly group: Uint8Array;
  /** Original row index in the raw dataset (for traceability and audit-pool ids). */
  readonly rowIndex: Int32Array;
}

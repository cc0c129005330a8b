/**
 * An audit pool: what an auditor can observe of a deployed classifier on a fixed
 * held-out set, one row per instance. Columns are typed arrays of equal length.
 * - group: protected attribute, 0 = group a, 1 = group b
 * - label: ground truth Y (0/1), needed for Equal Opportunity
 * - decision: the deployed hard decision f(x) (0/1)
 * - score: the model's probability in [0, 1] (score access), or null if absent
 * - logit: the pre-sigmoid output (logit access), or null if absent
 * - id: an optional row identifier
 * `source` names where the pool came from (a file path, "synthetic:<name>") for
 * error messages.
 */
export interface AuditPool {
  readonly size: number;
  readonly group: Uint8Array;
  readonly label: Uint8Array;
  readonly decision: Uint8Array;
  readonly score: Float64Array | null;
  readonly logit: Float64Array | null;
  readonly id: Int32Array | null;
  readonly source: string;
}

/** The column names of a pool file (Arrow IPC or CSV header), in canonical order. */
export const POOL_COLUMNS = ['id', 'group', 'label', 'decision', 'score', 'logit'] as const;
export type PoolColumn = (typeof POOL_COLUMNS)[number];

/**
 * An audit pool: what an auditor can observe of a deployed classifier on a fixed
 * held-out set, one row per instance. Columns are typed arrays of equal length.
 * - group: protected attribute as a code 0..K-1; with two groups 0 = group a, 1 = group b
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
  /**
   * The names of the group codes, index = code (a pool read from a file with a string or
   * multi-valued group column, or an intersection of several columns). Absent for a
   * two-group pool coded 0/1, which is read, audited and written exactly as before.
   */
  readonly groupNames?: readonly string[];
  /**
   * The minimum-size rule applied to the groups, in words, and the groups it excluded with
   * their row counts (applyGroupSizeRule); absent when no rule was asked for.
   */
  readonly groupSizeRule?: { readonly rule: string; readonly excluded: readonly ExcludedGroup[] };
}

/** A group a minimum-size rule removed from the pool: its name and how many rows it had. */
export interface ExcludedGroup {
  readonly name: string;
  readonly rows: number;
}

/**
 * The number of groups K of a pool: the length of its group names, or 2 for a 0/1 pool. O(1).
 * @param pool the pool
 * @returns K (at least 2)
 * @example groupCountOf({ ...pool, groupNames: ['Amer-Indian-Eskimo', 'Asian-Pac-Islander', 'Black'] }) // 3
 */
export function groupCountOf(pool: Pick<AuditPool, 'groupNames'>): number {
  return pool.groupNames === undefined ? 2 : pool.groupNames.length;
}

/** The column names of a pool file (Arrow IPC or CSV header), in canonical order. */
export const POOL_COLUMNS = ['id', 'group', 'label', 'decision', 'score', 'logit'] as const;
export type PoolColumn = (typeof POOL_COLUMNS)[number];

import { inputError } from '../util/errors.js';
import { type MultiGroupRows, multiGroupRows } from './multi-group-audit.js';
import { type AuditPool, groupCountOf } from './pool.js';

/** The rows of an equalized-odds audit: every row coded label · K + group, and each side's group sizes. */
export interface EqualizedOddsRows extends MultiGroupRows {
  /** Label-0 rows of each group: the false-positive-rate test's groups. */
  readonly falsePositiveSizes: readonly number[];
  /** Label-1 rows of each group: the true-positive-rate test's groups. */
  readonly truePositiveSizes: readonly number[];
}

/**
 * equalizedOddsRows(pool, observed) is every row of a pool of K groups with its code
 * label · K + group (codes 0..K-1: label-0 rows, the FPR test's; K..2K-1: label-1 rows, the
 * TPR test's, as EqualizedOddsTest reads them) and observed value, with the label-0 and
 * label-1 rows of each group. Throws InputError naming the pool when a group has no row of
 * either label (multiGroupRows), or when 2K codes do not fit a byte (K > 127). O(rows).
 * @param pool a pool of any number of groups
 * @param observed what the auditor sees of each row (pool.decision, or pool.score)
 * @returns the flat rows and both sides' sizes
 * @example equalizedOddsRows(pool, pool.decision).truePositiveSizes // label-1 rows per group
 */
export function equalizedOddsRows(pool: AuditPool, observed: ArrayLike<number>): EqualizedOddsRows {
  const groups = groupCountOf(pool);
  if (2 * groups > 255) {
    throw inputError({
      where: `${pool.source}: metric eodds`,
      expected: 'at most 127 groups (each group counts twice, once per label)',
      found: `${groups} groups`,
    });
  }
  const falsePositiveSizes = multiGroupRows(pool, 'pe', observed).groupSizes;
  const truePositiveSizes = multiGroupRows(pool, 'eo', observed).groupSizes;
  const group = new Uint8Array(pool.size);
  const value = new Float64Array(pool.size);
  for (let row = 0; row < pool.size; row++) {
    group[row] = pool.label[row] * groups + pool.group[row];
    value[row] = observed[row];
  }
  return {
    rate: 'eodds',
    groupSizes: [...falsePositiveSizes, ...truePositiveSizes],
    group,
    value,
    order: Int32Array.from(group, (_, i) => i),
    swaps: new Int32Array(pool.size),
    falsePositiveSizes,
    truePositiveSizes,
  };
}

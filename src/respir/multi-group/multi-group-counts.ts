import { inputError } from '../../util/errors.js';

/**
 * The metric's rows of a K-group respir audit: demographic parity (`sp`, every row), equal
 * opportunity (`eo`, label = 1 rows: true-positive rates) or predictive equality (`pe`,
 * label = 0 rows: false-positive rates). Paper B's Appendix C argument, stratum by stratum.
 */
export type MultiGroupMetric = 'sp' | 'eo' | 'pe';

/** Per-group counts of a set's metric rows (index = group code 0..K-1): sizes and decision-1 rows. */
export interface MultiGroupCounts {
  readonly sizes: readonly number[];
  readonly positives: readonly number[];
}

/**
 * multiGroupCountsFromColumns(group, label, decision, metric, groupCount) counts the
 * metric's rows of each group and their decision-1 rows. O(rows). Group codes must be
 * 0..groupCount−1 (AuditPool's contract); throws InputError otherwise.
 * @param group each row's group code
 * @param label each row's label (0/1)
 * @param decision each row's decision (0/1)
 * @param metric sp, eo (label = 1 rows) or pe (label = 0 rows)
 * @param groupCount K
 * @returns the metric rows and positives of every group
 * @example
 * multiGroupCountsFromColumns(pool.group, pool.label, pool.decision, 'pe', groupCountOf(pool));
 */
export function multiGroupCountsFromColumns(
  group: ArrayLike<number>,
  label: ArrayLike<number>,
  decision: ArrayLike<number>,
  metric: MultiGroupMetric,
  groupCount: number,
): MultiGroupCounts {
  const sizes = new Array<number>(groupCount).fill(0);
  const positives = new Array<number>(groupCount).fill(0);
  for (let i = 0; i < group.length; i++) {
    const g = group[i];
    if (!(g < groupCount)) {
      throw inputError({
        where: `multiGroupCountsFromColumns: row ${i} group`,
        expected: `0..${groupCount - 1}`,
        found: g,
      });
    }
    if ((metric === 'eo' && label[i] !== 1) || (metric === 'pe' && label[i] !== 0)) continue;
    sizes[g]++;
    if (decision[i] === 1) positives[g]++;
  }
  return { sizes, positives };
}

/**
 * rateExtremesOf(counts) is the smallest and the largest rate positives_g/sizes_g over the
 * groups with at least one row (NaN, NaN when none has). O(K).
 * @param counts per-group sizes and positives
 * @returns min_g p_g and max_g p_g
 * @example
 * rateExtremesOf({ sizes: [10, 20, 40], positives: [5, 4, 30] }); // { minimum: 0.2, maximum: 0.75 }
 */
export function rateExtremesOf(counts: MultiGroupCounts): { minimum: number; maximum: number } {
  let minimum = Number.NaN;
  let maximum = Number.NaN;
  for (let g = 0; g < counts.sizes.length; g++) {
    if (counts.sizes[g] === 0) continue;
    const rate = counts.positives[g] / counts.sizes[g];
    if (!(rate >= minimum)) minimum = rate;
    if (!(rate <= maximum)) maximum = rate;
  }
  return { minimum, maximum };
}

/**
 * maxGapOf(counts) is max_g p_g − min_g p_g, Fairlearn's between-groups difference. O(K).
 * @param counts per-group sizes and positives
 * @returns the max-gap (NaN when no group has a row)
 * @example
 * maxGapOf({ sizes: [10, 20, 40], positives: [5, 4, 30] }); // 0.55
 */
export function maxGapOf(counts: MultiGroupCounts): number {
  const { minimum, maximum } = rateExtremesOf(counts);
  return maximum - minimum;
}

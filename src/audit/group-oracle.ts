import { type GroupMetric, type GroupRate, rowCountsOf } from './metric.js';
import { type AuditPool, groupCountOf } from './pool.js';

/** The four-fifths rule: a group whose rate is below 4/5 of the highest group's has an adverse impact. */
export const FOUR_FIFTHS = 0.8;

/** One group's rate: its rows in the rate's denominator, those with decision 1, their share, and its impact ratio. */
export interface GroupRateRow {
  readonly name: string;
  readonly rows: number;
  readonly positives: number;
  /** positives / rows; null for a group with no row in the denominator. */
  readonly rate: number | null;
  /** rate / the highest group's rate (Local Law 144's impact ratio); null when either is undefined or the highest is 0.
   * */
  readonly impactRatio: number | null;
}

/** A rate over K groups, and its difference and ratio aggregations. */
export interface GroupRateOracle {
  readonly rate: GroupRate;
  readonly groups: readonly GroupRateRow[];
  /** max − min of the defined rates (Fairlearn's difference(method='between_groups')). */
  readonly difference: number;
  /** min / max of the defined rates (Fairlearn's ratio(method='between_groups')); NaN when the max is 0. */
  readonly ratio: number;
  /** The groups with an impact ratio below the four-fifths rule's 0.8. */
  readonly belowFourFifths: readonly string[];
}

/** A group metric over K groups: one rate, or eodds's two; its difference and ratio. */
export interface GroupMetricOracle {
  readonly metric: GroupMetric;
  readonly rates: readonly GroupRateOracle[];
  /** The metric's difference: the rate's, or for eodds the larger of the TPR and FPR differences (Fairlearn's
   * equalized_odds_difference). */
  readonly difference: number;
  /** The metric's ratio: the rate's, or for eodds the smaller of the two (Fairlearn's equalized_odds_ratio). */
  readonly ratio: number;
}

/** The name of group code g: its name, or "0"/"1" in a two-group pool. */
export function groupNameOf(pool: Pick<AuditPool, 'groupNames'>, g: number): string {
  return pool.groupNames?.[g] ?? String(g);
}

/**
 * groupRateOracle(pool, rate) is the rate (sp: decisions over all rows; eo: over label 1;
 * pe: over label 0) of every group of the pool, each group's impact ratio (its rate over
 * the highest), the max − min difference and min / max ratio of the defined rates, and
 * the groups below the four-fifths rule. Groups with no row in the denominator have rate
 * null and take no part. O(rows + K).
 * @param pool the pool (any number of groups)
 * @param rate which rate
 * @returns the per-group rates and their aggregations
 * @example groupRateOracle(pool, 'sp').difference // the SP gap over all groups
 */
export function groupRateOracle(pool: AuditPool, rate: GroupRate): GroupRateOracle {
  const groups = groupCountOf(pool);
  const rows = new Array<number>(groups).fill(0);
  const positives = new Array<number>(groups).fill(0);
  for (let row = 0; row < pool.size; row++) {
    if (!rowCountsOf(rate, pool.label[row])) continue;
    rows[pool.group[row]]++;
    positives[pool.group[row]] += pool.decision[row];
  }
  const rates = rows.map((count, g) => (count === 0 ? null : positives[g] / count));
  const defined = rates.filter((value): value is number => value !== null);
  const highest = defined.length === 0 ? Number.NaN : Math.max(...defined);
  const lowest = defined.length === 0 ? Number.NaN : Math.min(...defined);
  const table = rates.map((value, g) => ({
    name: groupNameOf(pool, g),
    rows: rows[g],
    positives: positives[g],
    rate: value,
    impactRatio: value === null || !(highest > 0) ? null : value / highest,
  }));
  return {
    rate,
    groups: table,
    difference: highest - lowest,
    ratio: highest > 0 ? lowest / highest : Number.NaN,
    belowFourFifths: table
      .filter((row) => row.impactRatio !== null && row.impactRatio < FOUR_FIFTHS)
      .map((row) => row.name),
  };
}

/**
 * groupMetricOracle(pool, metric) is the metric's oracle over the pool's groups: for sp,
 * eo and pe its rate's (groupRateOracle); for eodds the true- and false-positive rates,
 * the larger of their differences and the smaller of their ratios, as Fairlearn's
 * equalized_odds_difference and equalized_odds_ratio aggregate them. O(rows + K).
 * @param pool the pool (any number of groups)
 * @param metric the group metric
 * @returns the rates, the difference and the ratio
 * @example groupMetricOracle(pool, 'eodds').difference // max(TPR gap, FPR gap)
 */
export function groupMetricOracle(pool: AuditPool, metric: GroupMetric): GroupMetricOracle {
  if (metric !== 'eodds') {
    const only = groupRateOracle(pool, metric);
    return { metric, rates: [only], difference: only.difference, ratio: only.ratio };
  }
  const rates = [groupRateOracle(pool, 'eo'), groupRateOracle(pool, 'pe')];
  return {
    metric,
    rates,
    difference: Math.max(rates[0].difference, rates[1].difference),
    ratio: Math.min(rates[0].ratio, rates[1].ratio),
  };
}

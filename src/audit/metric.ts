/**
 * The fairness metric audited (paper A section 3.2): statistical parity (sp) compares
 * decision rates over the whole pool; equal opportunity (eo) compares them over the
 * rows with label = 1.
 */
export type FairnessMetric = 'sp' | 'eo';
export const FAIRNESS_METRICS: readonly FairnessMetric[] = ['sp', 'eo'];

/**
 * The group metrics the oracle computes over any number of groups: the two audited
 * metrics, predictive equality (pe: the decision rate on the rows with label = 0, the
 * false-positive rate) and equalized odds (eodds: equal opportunity and predictive
 * equality together).
 */
export type GroupMetric = FairnessMetric | 'pe' | 'eodds';
export const GROUP_METRICS: readonly GroupMetric[] = ['sp', 'eo', 'pe', 'eodds'];

/** The rate a one-rate metric compares across groups: its rows and its name in Fairlearn's terms. */
export type GroupRate = 'sp' | 'eo' | 'pe';

/** What each rate is, in words (for tables and reports). */
export const GROUP_RATE_NAMES: Readonly<Record<GroupRate, string>> = {
  sp: 'selection rate',
  eo: 'true-positive rate',
  pe: 'false-positive rate',
};

/**
 * rowCountsOf(rate, label) says whether a row with this label enters the rate's
 * denominator: every row for sp, label 1 for eo, label 0 for pe. O(1).
 * @param rate the rate
 * @param label the row's label (0 or 1)
 * @returns true when the row counts
 * @example rowCountsOf('pe', 0) // true
 */
export function rowCountsOf(rate: GroupRate, label: number): boolean {
  return rate === 'sp' || (rate === 'eo' ? label === 1 : label === 0);
}

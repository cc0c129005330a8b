import { testOf } from '../../audit/audit-test.js';
import { waldThresholds } from '../../stats/thresholds.js';

/** The stopping thresholds a cell's settings give, or null when they are not in the settings (calibrated, betting). */
function thresholdsOf(settings: Readonly<Record<string, unknown>>): { upper: number; lower: number } | null {
  const { thresholds, alpha, beta } = settings;
  if (typeof thresholds === 'object' && thresholds !== null) {
    const { upper, lower } = thresholds as { upper?: unknown; lower?: unknown };
    return typeof upper === 'number' && typeof lower === 'number' ? { upper, lower } : null;
  }
  const test = testOf(settings as Parameters<typeof testOf>[0]);
  if (test !== 'wald-glr' || typeof alpha !== 'number' || typeof beta !== 'number') return null;
  return waldThresholds(alpha, beta);
}

/**
 * sequentialAuditRowProblem(settings, columns, row): why a sequential-audit result row
 * cannot be what its cell computes, or null. It re-derives what a row determines: queries
 * from 0 to min(budget, pool size) and fixed_samples equal to that minimum; oracle_gap a
 * difference of two rates, in [-1, 1], and oracle_decision its comparison with the
 * tolerance; and, for the tests whose thresholds the settings give (wald-glr, given
 * {upper, lower}), a reject only at statistic >= upper and an accept only at <= lower.
 * Calibrated thresholds live in the calibration cache and the anytime-valid tests decide
 * on their own statistics: their decisions are checked for domain only. O(1).
 * @param settings the cell's validated settings
 * @param columns the outcome columns of a batch or chunk
 * @param row the row's index in them
 * @returns the problem in words, or null
 * @example sequentialAuditRowProblem(cell.settings, decoded.columns, 0) // null for a row as run wrote it
 */
export function sequentialAuditRowProblem(
  settings: Readonly<Record<string, unknown>>,
  columns: Readonly<Record<string, ArrayLike<number | string>>>,
  row: number,
): string | null {
  const value = (name: string) => (columns[name] as ArrayLike<unknown> | undefined)?.[row];
  const decision = value('decision');
  const statistic = value('statistic') as number;
  const queries = value('queries') as number;
  const poolSize = value('pool_size') as number;
  if (!(poolSize >= 1)) return `pool_size ${poolSize}: expected at least 1`;
  if (typeof settings.budget === 'number') {
    const limit = Math.min(settings.budget, poolSize);
    if (!(queries >= 0 && queries <= limit))
      return `queries ${queries}: expected 0 to min(budget, pool_size) = ${limit}`;
    if (value('fixed_samples') !== limit)
      return `fixed_samples ${value('fixed_samples')}: expected min(budget, pool_size) = ${limit}`;
  }
  const oracleGap = value('oracle_gap') as number;
  if (!(oracleGap >= -1 && oracleGap <= 1))
    return `oracle_gap ${oracleGap}: expected a difference of rates, in [-1, 1]`;
  if (typeof settings.tolerance === 'number') {
    // oracleDecision compares the exact gap of the counts; oracle_gap is that gap as a float: allow its rounding.
    const margin = 1e-9;
    const oracle = value('oracle_decision');
    if (
      (oracle === 'reject' && Math.abs(oracleGap) < settings.tolerance - margin) ||
      (oracle === 'accept' && Math.abs(oracleGap) > settings.tolerance + margin)
    )
      return (
        `oracle_decision ${oracle}: expected what oracle_gap ${oracleGap} against ` +
        `tolerance ${settings.tolerance} gives`
      );
  }
  const thresholds = thresholdsOf(settings);
  if (thresholds === null) return null;
  if (decision === 'reject' && !(statistic >= thresholds.upper))
    return (
      `decision reject with statistic ${statistic}: expected a statistic at or above the upper ` +
      `threshold ${thresholds.upper}`
    );
  if (decision === 'accept' && !(statistic <= thresholds.lower))
    return (
      `decision accept with statistic ${statistic}: expected a statistic at or below the lower ` +
      `threshold ${thresholds.lower}`
    );
  return null;
}

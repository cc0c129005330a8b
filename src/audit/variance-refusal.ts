import { varianceFloor } from '../stats/guarded-gaussian-glr-stream.js';
import { InputError } from '../util/errors.js';
import { CANNOT_DECIDE } from './audit-test.js';
import type { PreparedAudit } from './prepare-audit.js';

/**
 * pooledVarianceOf(prepared) is the pooled within-group variance of the metric's pool's
 * observed values, RSS / (N − 2) (two passes: the group means, then the squared
 * deviations). O(pool size).
 * @param prepared a prepared pool
 * @returns the pooled variance (0 when every group is constant)
 * @example pooledVarianceOf(prepareAudit(pool, 'sp', 'score'))
 */
export function pooledVarianceOf(prepared: PreparedAudit): number {
  const meanA = prepared.totalA / prepared.countA;
  const meanB = prepared.totalB / prepared.countB;
  const { group, value } = prepared;
  let squares = 0;
  for (let row = 0; row < prepared.size; row++) {
    const deviation = value[row] - (group[row] === 0 ? meanA : meanB);
    squares += deviation * deviation;
  }
  return squares / Math.max(1, prepared.size - 2);
}

/** Whether each group's values are all equal (exactly: the floating mean of equal values may differ from them). */
function everyGroupConstant(prepared: PreparedAudit): boolean {
  const first = [Number.NaN, Number.NaN];
  const { group, value } = prepared;
  for (let row = 0; row < prepared.size; row++) {
    const g = group[row];
    if (Number.isNaN(first[g])) first[g] = value[row];
    else if (value[row] !== first[g]) return false;
  }
  return true;
}

/**
 * varianceRefusal(prepared, tolerance) says why a Gaussian GLR (score or logit access, any
 * GLR test) cannot start on this pool, before the audit: its pooled within-group variance
 * is 0 ("cannot start: zero variance": every group constant, so the profiled variance of
 * the statistic is 0 on every path) or below varianceFloor(tolerance) (negligible: the
 * statistic would be driven by rounding, not by the gap). The error names the betting
 * test, which decides such pools. Returns null for decision access or a usable pool.
 * Paper A's statistic is not changed by it: an audit it refuses does not run. O(pool size).
 */
export function varianceRefusal(prepared: PreparedAudit, tolerance: number): InputError | null {
  if (prepared.family !== 'gaussian') return null;
  const variance = everyGroupConstant(prepared) ? 0 : pooledVarianceOf(prepared);
  const floor = varianceFloor(tolerance);
  if (variance >= floor) return null;
  const reason =
    variance === 0
      ? 'cannot start: zero variance (each group constant)'
      : `cannot start: negligible variance (pooled variance ${variance.toPrecision(3)} below (tolerance/100)² ` +
        `= ${floor.toPrecision(3)})`;
  const betting = `--test betting${prepared.access === 'logit' ? ' with --logit-bounds' : ''}`;
  return new InputError(
    `${prepared.source}: ${prepared.access} of the ${prepared.metric} pool: ${reason}: ${CANNOT_DECIDE}; the ` +
      `Gaussian GLR tests need values that vary within the groups, and test betting can decide this pool (${betting})`,
  );
}

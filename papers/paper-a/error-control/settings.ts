import type { AuditPool } from '../../../src/audit/pool.js';

/**
 * The tests the error-control study compares: paper A's GLR with Wald's thresholds, the
 * calibrated GLR and the betting test. The confidence-sequence test is left
 * out: it is the weakest, and its use is the gap interval it reports (docs/error-control.md).
 */
export const ERROR_CONTROL_TESTS = ['wald-glr', 'calibrated-glr', 'betting'] as const;

/**
 * The calibration the reproductions run by default (paper A's beyond-the-paper tables and
 * `reproduce error-control` share it, and so share the cache): 500 simulated audits per
 * pool and group a's rate at 7 points of [0, 1 − δ] (the worst compliant pools sit at mid
 * rates, the worst violating ones at the ends). Cheap enough for `make reproduce`; its
 * thresholds are more conservative than a full calibration's, since with fewer simulations
 * the Clopper-Pearson margin is wider. Full precision: --set calibration.paths=4000
 * --set calibration.baseRates=null (the default base rates).
 */
export const REPRODUCTION_CALIBRATION = { paths: 500, baseRates: [0, 0.1, 0.3, 0.5, 0.7, 0.9, 1] } as const;

/**
 * The gaps of the study in units of the test's tolerance, on the side of the pool's own
 * gap (gapUnit tolerance), and null for the pool as it is (at its own gap: Table 1's for
 * the calibrated pools, the trained model's for the real Adult pools): 0 and 1/2 are
 * compliant, 1 is the boundary (|gap| = tolerance, where both error bounds apply).
 */
export const ERROR_CONTROL_GAPS: readonly (number | null)[] = [null, 0, 0.5, 1];

/**
 * declaredLogitBounds(pools, logitTolerance) is the logit range the reproductions declare
 * for the betting test under logit access (logits are unbounded; the test needs a range
 * the provider guarantees): [-L, L], L the smallest integer at least every |logit| the
 * study audits: for each pool and metric (SP: all rows; EO: label-1 rows), group a's
 * largest |logit|, and group b's plus the largest shift the study applies to it (the
 * metric's own mean-logit gap plus the tolerance: shiftToProxyGap moves group b only).
 * One range for every pool, so one grid serves them all. O(pool rows).
 */
export function declaredLogitBounds(
  pools: readonly AuditPool[],
  logitTolerance: number,
): { lower: number; upper: number } {
  let largest = 0;
  for (const pool of pools) {
    const logit = pool.logit;
    if (logit === null) continue;
    for (const metric of ['sp', 'eo'] as const) {
      const extreme = [0, 0];
      const sums = [0, 0];
      const counts = [0, 0];
      for (let row = 0; row < pool.size; row++) {
        if (metric === 'eo' && pool.label[row] !== 1) continue;
        const group = pool.group[row];
        extreme[group] = Math.max(extreme[group], Math.abs(logit[row]));
        sums[group] += logit[row];
        counts[group]++;
      }
      const ownGap = Math.abs(sums[1] / counts[1] - sums[0] / counts[0]);
      largest = Math.max(largest, extreme[0], extreme[1] + ownGap + logitTolerance);
    }
  }
  const limit = Math.ceil(largest);
  return { lower: -limit, upper: limit };
}

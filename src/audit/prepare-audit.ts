import { BernoulliGlrStream } from '../stats/bernoulli-glr-stream.js';
import { countGapDecision } from '../stats/count-gap-comparison.js';
import type { FixedSampleDecision } from '../stats/fixed-sample-decision.js';
import { GaussianGlrStream } from '../stats/gaussian-glr-stream.js';
import type { GlrStream } from '../stats/glr-stream.js';
import { LARGEST_GAUSSIAN_VALUE } from '../stats/guarded-gaussian-glr-stream.js';
import { inputError } from '../util/errors.js';
import { ACCESS_REGIMES, type AccessRegime, accessFamily } from './access-regime.js';
import { FAIRNESS_METRICS, type FairnessMetric } from './metric.js';
import type { AuditPool } from './pool.js';

/**
 * The per-pool work of a sequential audit, done once and reused by every replicate:
 * the metric's sub-pool as flat typed arrays, its oracle gaps, and scratch buffers.
 * A PreparedAudit is not shared between threads (each worker prepares its own); one
 * replicate at a time uses it.
 */
export interface PreparedAudit {
  readonly metric: FairnessMetric;
  readonly access: AccessRegime;
  readonly family: 'bernoulli' | 'gaussian';
  /** Rows of the metric's pool (SP: all rows; EO: label = 1), N_pool of paper A. */
  readonly size: number;
  /** Group (0 = a, 1 = b) of each row of the metric's pool, in the pool's order. */
  readonly group: Uint8Array;
  /** What the auditor observes of each row: the decision (0/1), the score or the logit. */
  readonly value: Float64Array;
  readonly countA: number;
  readonly countB: number;
  /** Sum of `value` over each group's rows of the metric's pool. */
  readonly totalA: number;
  readonly totalB: number;
  /** Rows with decision = 1 in each group of the metric's pool (the oracle's counts). */
  readonly decisionPositivesA: number;
  readonly decisionPositivesB: number;
  /** The signed hard-decision gap (rate of b minus rate of a) on the metric's pool. */
  readonly oracleSignedGap: number;
  /** |oracleSignedGap|: the oracle the audits are judged against. */
  readonly oracleGap: number;
  /** The signed mean gap of the observed values (mean of b minus mean of a) on the metric's pool, any access. */
  readonly meanGap: number;
  /** |meanGap| of the score or logit on the metric's pool; NaN for decision access. */
  readonly proxyGap: number;
  readonly source: string;
  /** Scratch: the identity permutation, shuffled in place and restored by each replicate. */
  readonly order: Int32Array;
  /** The identity permutation, never shuffled: restores `order` by one copy. */
  readonly identity: Int32Array;
  /** Scratch: the swap partner of each shuffled position, to restore `order` (or `codes`). */
  readonly swaps: Int32Array;
  /**
   * Scratch for decision access: each row's group and decision packed as 2 group + decision,
   * in `order`'s arrangement (codes[i] is row order[i]'s), so that paper A's loop shuffles one
   * byte per row and reads no row index, group or value array; restored like `order`. Null when
   * the observed values are not all 0 or 1.
   */
  readonly codes: Uint8Array | null;
  /** Each row's code (as `codes`) in the pool's order, never shuffled: restores `codes` by one copy. */
  readonly rowCodes: Uint8Array | null;
  /** The statistic's running state, reset by each replicate. */
  readonly stream: GlrStream;
}

/**
 * prepareAudit(pool, metric, access) selects the metric's sub-pool (SP: every row; EO:
 * the rows with label = 1), copies its groups and observed values (decision, score or
 * logit) into flat typed arrays, computes the oracle hard-decision gap and the proxy
 * mean gap, and allocates the replicate scratch buffers. O(pool size).
 * Throws InputError when the metric or access is unknown, a value exceeds
 * LARGEST_GAUSSIAN_VALUE in absolute value (or is NaN), the pool lacks the column
 * the access regime needs, or the metric's pool has no row of one group.
 */
export function prepareAudit(pool: AuditPool, metric: FairnessMetric, access: AccessRegime): PreparedAudit {
  if (!FAIRNESS_METRICS.includes(metric)) {
    throw inputError({ where: 'prepareAudit: metric', expected: FAIRNESS_METRICS.join(' or '), found: metric });
  }
  if (!ACCESS_REGIMES.includes(access)) {
    throw inputError({ where: 'prepareAudit: access', expected: ACCESS_REGIMES.join(', '), found: access });
  }
  if (pool.groupNames !== undefined) {
    throw inputError({
      where: `${pool.source}: groups`,
      expected: 'a two-group pool coded 0/1 here (pools of named groups are audited by auditMultiGroupPool)',
      found: `${pool.groupNames.length} named groups`,
    });
  }
  const observed = access === 'decision' ? pool.decision : access === 'score' ? pool.score : pool.logit;
  if (observed === null) {
    throw inputError({
      where: `${pool.source}: column "${access}"`,
      expected: `a ${access} column for ${access} access`,
      found: 'no such column',
    });
  }
  let size = 0;
  for (let row = 0; row < pool.size; row++) if (metric === 'sp' || pool.label[row] === 1) size++;
  const group = new Uint8Array(size);
  const value = new Float64Array(size);
  const counts = [0, 0];
  const decisions = [0, 0];
  const totals = [0, 0];
  let k = 0;
  for (let row = 0; row < pool.size; row++) {
    if (metric === 'eo' && pool.label[row] !== 1) continue;
    const g = pool.group[row];
    if (!(Math.abs(observed[row]) <= LARGEST_GAUSSIAN_VALUE)) {
      throw inputError({
        where: `${pool.source}: row ${row + 1}, column "${access}"`,
        expected: `a finite value within ±${LARGEST_GAUSSIAN_VALUE} (the Gaussian GLR squares it)`,
        found: observed[row],
      });
    }
    group[k] = g;
    value[k] = observed[row];
    counts[g]++;
    decisions[g] += pool.decision[row];
    totals[g] += observed[row];
    k++;
  }
  for (const g of [0, 1]) {
    if (counts[g] === 0) {
      const rows = metric === 'eo' ? 'rows with label = 1' : 'rows';
      throw inputError({
        where: `${pool.source}: metric ${metric}`,
        expected: `${rows} of both groups`,
        found: `no row of group ${g === 0 ? 'a (group = 0)' : 'b (group = 1)'} among ${size} ${rows}`,
      });
    }
  }
  const oracleSignedGap = decisions[1] / counts[1] - decisions[0] / counts[0];
  const family = accessFamily(access);
  const meanGap = totals[1] / counts[1] - totals[0] / counts[0];
  const order = new Int32Array(size);
  for (let i = 0; i < size; i++) order[i] = i;
  const rowCodes = family === 'bernoulli' ? packedCodes(group, value) : null;
  // The fields that may hold fractions start as NaN and are set after: every PreparedAudit then has
  // them laid out as doubles, whatever the first one held (a field laid out for the integer totals
  // of decisions is laid out again at a score pool's, which discards the compiled replicate loop).
  const prepared = {
    codes: rowCodes === null ? null : rowCodes.slice(),
    rowCodes,
    metric,
    access,
    family,
    size,
    group,
    value,
    countA: counts[0],
    countB: counts[1],
    totalA: Number.NaN,
    totalB: Number.NaN,
    decisionPositivesA: decisions[0],
    decisionPositivesB: decisions[1],
    oracleSignedGap: Number.NaN,
    oracleGap: Number.NaN,
    meanGap: Number.NaN,
    proxyGap: Number.NaN,
    source: pool.source,
    order,
    identity: order.slice(),
    swaps: new Int32Array(size),
    stream: family === 'bernoulli' ? new BernoulliGlrStream() : new GaussianGlrStream(),
  };
  prepared.totalA = totals[0]!;
  prepared.totalB = totals[1]!;
  prepared.oracleSignedGap = oracleSignedGap;
  prepared.oracleGap = Math.abs(oracleSignedGap);
  prepared.meanGap = meanGap;
  if (family === 'gaussian') prepared.proxyGap = Math.abs(meanGap);
  return prepared;
}

/** 2 group + value of each row, or null unless every value is 0 or 1. O(rows). */
function packedCodes(group: Uint8Array, value: Float64Array): Uint8Array | null {
  const codes = new Uint8Array(group.length);
  for (let row = 0; row < group.length; row++) {
    const x = value[row];
    if (x !== 0 && x !== 1) return null;
    codes[row] = 2 * group[row] + x;
  }
  return codes;
}

/**
 * oracleDecision(prepared, tolerance) is the oracle: reject when the pool's hard-decision
 * gap exceeds the tolerance, compared exactly on the decision counts with the tolerance
 * as the decimal it prints as (countGapDecision: a gap of exactly 0.05 by counts is
 * accepted at tolerance 0.05, whatever its double difference). O(1).
 */
export function oracleDecision(prepared: PreparedAudit, tolerance: number): FixedSampleDecision {
  return countGapDecision(
    prepared.countA,
    prepared.decisionPositivesA,
    prepared.countB,
    prepared.decisionPositivesB,
    tolerance,
  );
}

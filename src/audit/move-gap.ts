import { inputError } from '../util/errors.js';
import { partialShuffle, type Random } from '../util/random.js';
import type { FairnessMetric } from './metric.js';
import type { AuditPool } from './pool.js';

/** A pool with its gap moved, and what changed. */
export interface MovedPool {
  readonly pool: AuditPool;
  /** Rows whose decision (re-decide) or value (shift) changed. */
  readonly changedRows: number;
}

function copyPool(pool: AuditPool, source: string): AuditPool {
  return {
    size: pool.size,
    group: pool.group,
    label: pool.label,
    decision: pool.decision.slice(),
    score: pool.score === null ? null : pool.score.slice(),
    logit: pool.logit === null ? null : pool.logit.slice(),
    id: pool.id,
    source,
  };
}

/** The metric's rows of one group and that group's hard-decision rate on them. */
function metricRows(pool: AuditPool, metric: FairnessMetric, group: number): number[] {
  const rows: number[] = [];
  for (let row = 0; row < pool.size; row++) {
    if (pool.group[row] === group && (metric === 'sp' || pool.label[row] === 1)) rows.push(row);
  }
  return rows;
}

function signedDecisionGap(pool: AuditPool, metric: FairnessMetric): { gap: number; counts: [number, number] } {
  const counts: [number, number] = [0, 0];
  const positives = [0, 0];
  for (let row = 0; row < pool.size; row++) {
    if (metric === 'eo' && pool.label[row] !== 1) continue;
    counts[pool.group[row]]++;
    positives[pool.group[row]] += pool.decision[row];
  }
  return { gap: positives[1] / counts[1] - positives[0] / counts[0], counts };
}

/**
 * redecideToGap(pool, metric, targetGap, random, group, rounding) moves the metric's signed
 * hard-decision gap (rate of b minus rate of a; SP over all rows, EO over label-1 rows)
 * as close to targetGap as whole rows allow by re-deciding rows of one group (default b):
 * k = round((target - gap) N_g) rows (sign flipped for group a) of that group's metric
 * rows; with rounding 'outward' the fewest rows that reach |gap| >= |targetGap| instead
 * (a target at or beyond the tolerance stays violating), with 'inward' the most that keep
 * |gap| <= |targetGap| (a compliant target stays compliant). The
 * rows are drawn uniformly without replacement among those with the decision that has to
 * change, and get the other decision; each re-decided row's score becomes 1 - score and its
 * logit -logit, so decision = [score > 1/2] = [logit > 0] still holds where it held.
 * Preserved: row count, groups, labels (so group sizes and base rates, SP's and EO's
 * pools), every row of the other group, every row not re-decided. Changed: the chosen
 * group's decision rate on the metric's rows (and so its score / logit means and, for EO,
 * its SP rate too). O(pool size). Throws InputError naming the target gap when the group
 * has too few rows with the decision to change.
 */
export function redecideToGap(
  pool: AuditPool,
  metric: FairnessMetric,
  targetGap: number,
  random: Random,
  group: 0 | 1 = 1,
  rounding: GapRounding = 'nearest',
): MovedPool {
  const { gap, counts } = signedDecisionGap(pool, metric);
  const direction = group === 1 ? 1 : -1;
  const change = roundedChange(direction * (targetGap - gap) * counts[group], targetGap * direction, rounding);
  const moved = copyPool(pool, `${pool.source} (re-decided to ${metric} gap ${targetGap})`);
  if (change === 0) return { pool: moved, changedRows: 0 };
  const from = change > 0 ? 0 : 1;
  const eligible = Int32Array.from(metricRows(pool, metric, group).filter((row) => pool.decision[row] === from));
  const needed = Math.abs(change);
  if (eligible.length < needed) {
    throw inputError({
      where: `redecideToGap: targetGap`,
      expected:
        `a ${metric} gap reachable by re-deciding group ${group === 1 ? 'b' : 'a'} (needs ${needed} rows ` +
        `decided ${from}, the pool has ${eligible.length})`,
      found: targetGap,
    });
  }
  for (const row of partialShuffle(eligible, needed, random)) {
    moved.decision[row] = 1 - from;
    if (moved.score !== null) moved.score[row] = 1 - moved.score[row];
    if (moved.logit !== null) moved.logit[row] = -moved.logit[row];
  }
  return { pool: moved, changedRows: needed };
}

/** How redecideToGap rounds a target gap that whole rows cannot reach exactly. */
export type GapRounding = 'nearest' | 'outward' | 'inward';

/**
 * roundedChange(rows, outwardSign, rounding): the signed number of rows to re-decide for
 * an exact (fractional) `rows`; re-deciding more rows in the direction of outwardSign
 * moves |gap| outward. A relative 1e-9 guard keeps an exact count from being rounded a
 * whole row past itself by floating-point error. O(1).
 */
function roundedChange(rows: number, outwardSign: number, rounding: GapRounding): number {
  if (rounding === 'nearest') return Math.round(rows);
  const guard = 1e-9 * Math.max(1, Math.abs(rows));
  const up = outwardSign >= 0 === (rounding === 'outward');
  return up ? Math.ceil(rows - guard) : Math.floor(rows + guard);
}

/** The signed mean gap (b minus a) of a column over the metric's rows. */
function meanGap(pool: AuditPool, metric: FairnessMetric, column: Float64Array): number {
  const sums = [0, 0];
  const counts = [0, 0];
  for (let row = 0; row < pool.size; row++) {
    if (metric === 'eo' && pool.label[row] !== 1) continue;
    sums[pool.group[row]] += column[row];
    counts[pool.group[row]]++;
  }
  return sums[1] / counts[1] - sums[0] / counts[0];
}

const logistic = (z: number) => 1 / (1 + Math.exp(-z));

/**
 * The logit a score moves from: logit(s) for 0 < s < 1; for a score of exactly 0 or 1
 * (saturated, e.g. a model's probability rounded to 0 or 1) the row's finite logit when
 * the pool has a logit column, else NaN: the score cannot move. O(1).
 */
function scoreLogit(score: number, logit: number | undefined): number {
  if (score > 0 && score < 1) return Math.log(score / (1 - score));
  return logit !== undefined && Number.isFinite(logit) ? logit : Number.NaN;
}

/**
 * The logit-scale shift c that puts the mean of sigmoid(z_i + c) over group b's metric
 * rows at `target` (z_i = scoreLogit; scores that cannot move contribute their own value): Newton's method on this
 * increasing, smooth function of c,
 * safeguarded by a bisection bracket in [-60, 60]; to 1e-13 in the mean. Returns NaN
 * when the target lies outside what any c reaches. O(rows x iterations), about 10.
 */
function logitShiftFor(logits: Float64Array, fixedSum: number, count: number, target: number): number {
  const meanAt = (c: number): { mean: number; slope: number } => {
    let sum = fixedSum;
    let slope = 0;
    for (let i = 0; i < logits.length; i++) {
      const p = logistic(logits[i] + c);
      sum += p;
      slope += p * (1 - p);
    }
    return { mean: sum / count, slope: slope / count };
  };
  let low = -60;
  let high = 60;
  if (!(meanAt(low).mean <= target && meanAt(high).mean >= target)) return Number.NaN;
  let c = 0;
  for (let step = 0; step < 200; step++) {
    const { mean, slope } = meanAt(c);
    if (Math.abs(mean - target) <= 1e-13) return c;
    if (mean < target) low = c;
    else high = c;
    const newton = c - (mean - target) / slope;
    c = slope > 0 && newton > low && newton < high ? newton : (low + high) / 2;
  }
  return c;
}

/**
 * shiftToProxyGap(pool, metric, access, targetGap) moves the metric's signed proxy gap
 * (mean score or logit of b minus of a, on the metric's rows) to targetGap by moving
 * every score or logit of group b by one constant:
 * - logits: z -> z + c, with c = targetGap - gap (exact up to rounding);
 * - scores: s -> sigmoid(logit(s) + c), the same constant on the logit scale, so scores stay
 *   in [0, 1]; a score of exactly 0 or 1 moves from the row's logit when the pool has a
 *   finite one (sigmoid(z + c)), else stays put; c is found by safeguarded Newton steps
 *   on the mean score gap (to 1e-13).
 * Preserved: everything but that column of group b; the order of group b's values (and
 * for logits their residuals, so spread and shape); decisions are not touched, so the
 * hard-decision gap stays where it was. O(pool size) (x about 10 Newton steps for scores).
 * Throws InputError when the pool lacks the column, or when no shift reaches a score gap
 * (group b's scores of exactly 0 and 1 without a logit bound its mean).
 */
export function shiftToProxyGap(
  pool: AuditPool,
  metric: FairnessMetric,
  access: 'score' | 'logit',
  targetGap: number,
): MovedPool {
  const column = access === 'score' ? pool.score : pool.logit;
  if (column === null) {
    throw inputError({
      where: `${pool.source}: column "${access}"`,
      expected: `a ${access} column to shift`,
      found: 'no such column',
    });
  }
  const moved = copyPool(pool, `${pool.source} (${access} shifted to ${metric} gap ${targetGap})`);
  const values = (access === 'score' ? moved.score : moved.logit)!;
  const groupB: number[] = [];
  for (let row = 0; row < pool.size; row++) if (pool.group[row] === 1) groupB.push(row);
  const ownGap = meanGap(pool, metric, column);
  if (access === 'logit') {
    for (const row of groupB) values[row] += targetGap - ownGap;
    return { pool: moved, changedRows: groupB.length };
  }
  // Scores: the shift on the logit scale whose mean over group b's metric rows hits the target.
  const inMetric = groupB.filter((row) => metric === 'sp' || pool.label[row] === 1);
  let sumB = 0;
  for (const row of inMetric) sumB += column[row];
  const meanA = sumB / inMetric.length - ownGap;
  // Each row of group b's logit to move from (NaN: it stays put), computed once.
  const z = new Map<number, number>(groupB.map((row) => [row, scoreLogit(column[row], pool.logit?.[row])]));
  const movable = inMetric.filter((row) => !Number.isNaN(z.get(row)));
  const logits = Float64Array.from(movable, (row) => z.get(row) as number);
  let fixedSum = 0;
  for (const row of inMetric) if (Number.isNaN(z.get(row))) fixedSum += column[row];
  const c = logitShiftFor(logits, fixedSum, inMetric.length, meanA + targetGap);
  if (Number.isNaN(c)) {
    throw inputError({
      where: 'shiftToProxyGap: targetGap',
      expected:
        `a score gap within ` +
        `[${(fixedSum / inMetric.length - meanA).toPrecision(4)}, ` +
        `${((fixedSum + movable.length) / inMetric.length - meanA).toPrecision(4)}] ` +
        `(reachable by moving group b's scores on the logit scale; ` +
        `its scores of 0 and 1 without a finite logit stay put)`,
      found: targetGap,
    });
  }
  for (const [row, logit] of z) if (!Number.isNaN(logit)) values[row] = logistic(logit + c);
  return { pool: moved, changedRows: groupB.length };
}

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
 * redecideToGap(pool, metric, targetGap, random, group) moves the metric's signed
 * hard-decision gap (rate of b minus rate of a; SP over all rows, EO over label-1 rows)
 * as close to targetGap as whole rows allow by re-deciding rows of one group (default b):
 * k = round((target - gap) N_g) rows (sign flipped for group a) of that group's metric
 * rows, drawn uniformly without replacement among those with the decision that has to
 * change, get the other decision; each re-decided row's score becomes 1 - score and its
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
): MovedPool {
  const { gap, counts } = signedDecisionGap(pool, metric);
  const direction = group === 1 ? 1 : -1;
  const change = Math.round(direction * (targetGap - gap) * counts[group]);
  const moved = copyPool(pool, `${pool.source} (re-decided to ${metric} gap ${targetGap})`);
  if (change === 0) return { pool: moved, changedRows: 0 };
  const from = change > 0 ? 0 : 1;
  const eligible = Int32Array.from(metricRows(pool, metric, group).filter((row) => pool.decision[row] === from));
  const needed = Math.abs(change);
  if (eligible.length < needed) {
    throw inputError({
      where: `redecideToGap: targetGap`,
      expected: `a ${metric} gap reachable by re-deciding group ${group === 1 ? 'b' : 'a'} (needs ${needed} rows decided ${from}, the pool has ${eligible.length})`,
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

/**
 * shiftToProxyGap(pool, metric, access, targetGap) moves the metric's signed proxy gap
 * (mean score or logit of b minus of a, on the metric's rows) to targetGap by adding one
 * constant to the score or logit of every row of group b. Preserved: everything but that
 * column of group b, and group b's residuals (so the within-group spread and shape);
 * decisions are not touched, so the hard-decision gap stays where it was. O(pool size).
 * Throws InputError when the pool lacks the column, or when a shifted score would leave
 * [0, 1] (naming the target and how many rows).
 */
export function shiftToProxyGap(pool: AuditPool, metric: FairnessMetric, access: 'score' | 'logit', targetGap: number): MovedPool {
  const column = access === 'score' ? pool.score : pool.logit;
  if (column === null) {
    throw inputError({ where: `${pool.source}: column "${access}"`, expected: `a ${access} column to shift`, found: 'no such column' });
  }
  const sums = [0, 0];
  const counts = [0, 0];
  for (let row = 0; row < pool.size; row++) {
    if (metric === 'eo' && pool.label[row] !== 1) continue;
    sums[pool.group[row]] += column[row];
    counts[pool.group[row]]++;
  }
  const shift = targetGap - (sums[1] / counts[1] - sums[0] / counts[0]);
  const moved = copyPool(pool, `${pool.source} (${access} shifted to ${metric} gap ${targetGap})`);
  const values = (access === 'score' ? moved.score : moved.logit)!;
  let changed = 0;
  let outside = 0;
  for (let row = 0; row < pool.size; row++) {
    if (pool.group[row] !== 1) continue;
    values[row] += shift;
    changed++;
    if (access === 'score' && !(values[row] >= 0 && values[row] <= 1)) outside++;
  }
  if (outside > 0) {
    throw inputError({
      where: 'shiftToProxyGap: targetGap',
      expected: `a score gap reachable by a shift that keeps group b's scores in [0, 1] (a shift of ${shift.toPrecision(4)} takes ${outside} of them outside)`,
      found: targetGap,
    });
  }
  return { pool: moved, changedRows: changed };
}

import { checkTolerance } from '../stats/check-tolerance.js';
import { countGapDecision } from '../stats/count-gap-comparison.js';
import { type FixedSampleDecision, fixedSampleDecision } from '../stats/fixed-sample-decision.js';
import { inputError } from '../util/errors.js';
import type { Random } from '../util/random.js';
import { restoreOrder, shufflePosition } from './partial-shuffle.js';
import type { PreparedAudit } from './prepare-audit.js';

/** The settings of one sequential audit replicate. */
export interface SequentialAuditSettings {
  /** H0: |gap| <= tolerance; in (0, 1) for decision and score access, > 0 for logits. */
  readonly tolerance: number;
  /** B: the most queries; the audit stops at min(B, pool size). An integer >= 1. */
  readonly budget: number;
  /** Nominal type I error; the upper threshold is log((1 - beta) / alpha). */
  readonly alpha: number;
  /** Nominal type II error; the lower threshold is log(beta / (1 - alpha)). */
  readonly beta: number;
  /** 'random': a uniform permutation without replacement drawn from `random`; 'given': the pool's order. */
  readonly order: 'random' | 'given';
  /** Also return the statistic after every query. */
  readonly trajectory?: boolean;
  /** Also compute the fixed-sample decision on the first min(B, pool) rows (default true). */
  readonly fixedSample?: boolean;
  /**
   * The test starts once each group has at least this many observations (default 1, as
   * in paper A: once both groups are observed). A burn-in for the Gaussian proxy GLR,
   * whose profiled variance makes it heavy-tailed with a handful of observations.
   */
  readonly minimumPerGroup?: number;
}

export type SequentialDecision = 'reject' | 'accept' | 'inconclusive';

/** The outcome of one sequential audit replicate. */
export interface SequentialAuditResult {
  readonly decision: SequentialDecision;
  /** Queries made until a threshold was crossed, or min(B, pool size). */
  readonly queries: number;
  /** The signed GLR statistic after the last query (0 if it never became defined). */
  readonly statistic: number;
  /** Plug-in decision on the first min(B, pool size) rows of the same order; null if not asked for. */
  readonly fixedDecision: FixedSampleDecision | null;
  /** min(B, pool size): the rows the fixed-sample decision used. */
  readonly fixedSamples: number;
  /** The plug-in gap (mean of b minus mean of a) of those rows. */
  readonly fixedGap: number;
  /** The statistic after each query (0 before it is defined); only when settings.trajectory. */
  readonly trajectory?: Float64Array;
}

/** Names a setting in an error message: "runSequentialAudit: tolerance" by default, a CLI flag for the CLI. */
export type SettingNamer = (
  setting: 'tolerance' | 'budget' | 'alpha' | 'beta' | 'order' | 'random' | 'minimumPerGroup',
) => string;

const defaultNamer: SettingNamer = (setting) => `runSequentialAudit: ${setting}`;

/**
 * checkSequentialAuditSettings(prepared, settings, random, name) throws InputError naming
 * the first bad setting (tolerance range for the access regime, budget, alpha, beta,
 * order, a missing generator for random order); `name` turns a setting into the words
 * of the message (a CLI passes its flag names). O(1).
 */
export function checkSequentialAuditSettings(
  prepared: PreparedAudit,
  settings: SequentialAuditSettings,
  random: Random | null,
  name: SettingNamer = defaultNamer,
): void {
  checkTolerance(settings.tolerance, name('tolerance'), prepared.access === 'logit' ? Number.POSITIVE_INFINITY : 1);
  if (!(Number.isSafeInteger(settings.budget) && settings.budget >= 1)) {
    throw inputError({ where: name('budget'), expected: 'an integer >= 1', found: settings.budget });
  }
  if (!(settings.alpha > 0 && settings.alpha < 1)) {
    throw inputError({ where: name('alpha'), expected: 'a number in (0, 1)', found: settings.alpha });
  }
  if (!(settings.beta > 0 && settings.beta < 1)) {
    throw inputError({ where: name('beta'), expected: 'a number in (0, 1)', found: settings.beta });
  }
  if (!(settings.alpha + settings.beta < 1)) {
    throw inputError({
      where: `${name('alpha')} + ${name('beta')}`,
      expected: 'less than 1',
      found: settings.alpha + settings.beta,
    });
  }
  const minimum = settings.minimumPerGroup;
  if (minimum !== undefined && !(Number.isSafeInteger(minimum) && minimum >= 1)) {
    throw inputError({ where: name('minimumPerGroup'), expected: 'an integer >= 1', found: minimum });
  }
  if (settings.order !== 'random' && settings.order !== 'given') {
    throw inputError({ where: name('order'), expected: '"random" or "given"', found: settings.order });
  }
  if (settings.order === 'random' && typeof random !== 'function') {
    throw inputError({ where: name('random'), expected: 'a seeded generator for random order', found: random });
  }
}

/**
 * The fixed-sample decision: on hard decisions the gap of counts is compared exactly
 * (countGapDecision; sums of 0/1 values are the positives, exact in doubles); on scores
 * or logits the plug-in mean gap is compared in floating point (fixedSampleDecision).
 */
function fixedDecisionOf(
  prepared: PreparedAudit,
  wholePool: boolean,
  countA: number,
  sumA: number,
  countB: number,
  sumB: number,
  gap: number,
  tolerance: number,
): FixedSampleDecision {
  if (prepared.family === 'gaussian') return fixedSampleDecision(Number.isNaN(gap) ? 0 : gap, tolerance);
  return wholePool
    ? countGapDecision(prepared.countA, prepared.totalA, prepared.countB, prepared.totalB, tolerance)
    : countGapDecision(countA, sumA, countB, sumB, tolerance);
}

/**
 * runSequentialAudit(prepared, settings, random) runs one sequential GLR audit (paper A
 * section 3.5): rows are queried in a uniformly random order without replacement (a
 * partial Fisher-Yates shuffle driven by `random`, one draw per position, so only the
 * positions used cost anything) or in the pool's order; each query folds one observation
 * into the statistic in O(1); once the statistic is defined (both groups observed; for
 * the Gaussian also a positive pooled variance) and each group has at least
 * settings.minimumPerGroup observations (default 1) the audit rejects at statistic >= upper,
 * accepts at <= lower, and is inconclusive when min(B, pool size) queries pass without
 * either. The fixed-sample decision uses the first min(B, pool size) rows of the same
 * order (exact on counts for hard decisions, see fixedDecisionOf). Running time O(min(B, pool size)) (O(queries) with fixedSample: false); no
 * allocation proportional to the pool (the prepared scratch is shuffled and restored).
 * The result depends only on the prepared pool, the settings and the generator's stream.
 * Throws InputError for bad settings (see checkSequentialAuditSettings).
 */
export function runSequentialAudit(
  prepared: PreparedAudit,
  settings: SequentialAuditSettings,
  random: Random | null,
): SequentialAuditResult {
  checkSequentialAuditSettings(prepared, settings, random);
  const upper = Math.log((1 - settings.beta) / settings.alpha);
  const lower = Math.log(settings.beta / (1 - settings.alpha));
  const size = prepared.size;
  const cap = Math.min(settings.budget, size);
  const shuffle = settings.order === 'random';
  const wantFixed = settings.fixedSample !== false;
  const minimum = settings.minimumPerGroup ?? 1;
  const trajectory = settings.trajectory === true ? new Float64Array(cap) : null;
  const { group, value, order, swaps, stream } = prepared;
  stream.reset(settings.tolerance);
  let countA = 0;
  let countB = 0;
  let sumA = 0;
  let sumB = 0;
  let statistic = 0;
  let decision: SequentialDecision = 'inconclusive';
  let position = 0;
  while (position < cap) {
    const row = shuffle ? shufflePosition(order, swaps, position, random!) : position;
    const g = group[row];
    const x = value[row];
    if (g === 0) {
      countA++;
      sumA += x;
    } else {
      countB++;
      sumB += x;
    }
    stream.add(g, x);
    statistic = stream.statistic;
    if (trajectory !== null) trajectory[position] = statistic;
    position++;
    if (statistic >= upper || statistic <= lower) {
      if (stream.ready && countA >= minimum && countB >= minimum) {
        decision = statistic >= upper ? 'reject' : 'accept';
        break;
      }
    }
  }
  const queries = position;
  let fixedGap = Number.NaN;
  if (wantFixed) {
    if (cap === size) {
      fixedGap = prepared.totalB / prepared.countB - prepared.totalA / prepared.countA;
    } else {
      for (; position < cap; position++) {
        const row = shuffle ? shufflePosition(order, swaps, position, random!) : position;
        if (group[row] === 0) {
          countA++;
          sumA += value[row];
        } else {
          countB++;
          sumB += value[row];
        }
      }
      fixedGap = sumB / countB - sumA / countA;
    }
  }
  if (shuffle) restoreOrder(order, swaps, position);
  return {
    decision,
    queries,
    statistic,
    fixedDecision: wantFixed ? fixedDecisionOf(prepared, cap === size, countA, sumA, countB, sumB, fixedGap, settings.tolerance) : null,
    fixedSamples: cap,
    fixedGap,
    ...(trajectory !== null ? { trajectory: trajectory.subarray(0, queries) } : {}),
  };
}

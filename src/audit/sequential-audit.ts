import { BernoulliGlrStream } from '../stats/bernoulli-glr-stream.js';
import { countGapDecision } from '../stats/count-gap-comparison.js';
import { type FixedSampleDecision, fixedSampleDecision } from '../stats/fixed-sample-decision.js';
import { GaussianGlrStream } from '../stats/gaussian-glr-stream.js';
import { QUERY_NAN } from '../stats/glr-stream.js';
import { NAN_STATISTIC } from '../stats/glr-threshold-test.js';
import { waldThresholds } from '../stats/thresholds.js';
import { ALEA_MULTIPLIER, ALEA_SCALE, aleaStateOf, type Random } from '../util/random.js';
import { type AuditSettings, toleranceOfAccess } from './audit-settings.js';
import { restoreScratch, shufflePosition } from './partial-shuffle.js';
import type { PreparedAudit } from './prepare-audit.js';

/** What one replicate may also return; neither changes its decision. */
export interface SequentialAuditOptions {
  /** Also return the statistic after every query. */
  readonly trajectory?: boolean;
  /** Also compute the fixed-sample decision on the first min(B, pool) rows (default true). */
  readonly fixedSample?: boolean;
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
  /** The statistic after each query (0 before it is defined); only when options.trajectory. */
  readonly trajectory?: Float64Array;
  /** The confidence-sequence test: its 1 - alpha interval for the gap when it stopped (runAudit). */
  readonly gapInterval?: readonly [number, number];
}

/** The running counts and sums of the rows an audit has queried, per group. */
export interface QueriedSums {
  countA: number;
  sumA: number;
  countB: number;
  sumB: number;
}

/**
 * continueRandomOrder(prepared, sums, position, cap, shuffle, random) queries positions
 * position..cap-1 of the same order an audit used (the partial shuffle of the prepared
 * scratch when `shuffle`, else the pool's order) and adds their values to `sums`: the rest
 * of the first min(B, pool size) rows the fixed-sample decision uses. Returns cap (the
 * positions now shuffled, for restoreOrder). O(cap - position).
 */
export function continueRandomOrder(
  prepared: PreparedAudit,
  sums: QueriedSums,
  position: number,
  cap: number,
  shuffle: boolean,
  random: Random | null,
): number {
  const { group, value, order, swaps } = prepared;
  // Local sums and the shuffle step written out (partialShuffleStep's arithmetic), and for a
  // generator of createRandom its Alea steps too, on locals written back after the loop: the
  // baseline's continuation is the loop's longest stretch without a statistic.
  let { countA, sumA, countB, sumB } = sums;
  const length = order.length;
  const alea = shuffle ? aleaStateOf(random!) : null;
  if (alea !== null) {
    // Alea's constants on locals: an imported binding is re-read (and checked) at every use in a loop.
    const multiplier = ALEA_MULTIPLIER;
    const scale = ALEA_SCALE;
    let s0 = alea[0];
    let s1 = alea[1];
    let s2 = alea[2];
    let carry = alea[3];
    for (; position < cap; position++) {
      const t = multiplier * s0 + carry * scale;
      s0 = s1;
      s1 = s2;
      carry = Math.floor(t);
      s2 = t - carry;
      const partner = position + Math.floor(s2 * (length - position));
      const row = order[partner];
      order[partner] = order[position];
      order[position] = row;
      swaps[position] = partner;
      // Without a branch on the group (codes 0 and 1): adding 0 leaves a count or sum as it was.
      const b = group[row];
      const x = value[row];
      countA += 1 - b;
      sumA += (1 - b) * x;
      countB += b;
      sumB += b * x;
    }
    alea[0] = s0;
    alea[1] = s1;
    alea[2] = s2;
    alea[3] = carry;
  }
  for (; position < cap; position++) {
    let row = position;
    if (shuffle) {
      const partner = position + Math.floor(random!() * (length - position));
      row = order[partner];
      order[partner] = order[position];
      order[position] = row;
      swaps[position] = partner;
    }
    if (group[row] === 0) {
      countA++;
      sumA += value[row];
    } else {
      countB++;
      sumB += value[row];
    }
  }
  sums.countA = countA;
  sums.sumA = sumA;
  sums.countB = countB;
  sums.sumB = sumB;
  return position;
}

/** addQueried(sums, group, value) adds one queried row's value to its group's count and sum. O(1). */
export function addQueried(sums: QueriedSums, group: number, value: number): void {
  if (group === 0) {
    sums.countA++;
    sums.sumA += value;
  } else {
    sums.countB++;
    sums.sumB += value;
  }
}

/**
 * fixedSampleOf(prepared, sums, cap, tolerance) is the fixed-sample decision on the first
 * min(B, pool size) = cap rows (their sums in `sums`): the plug-in gap (mean of b minus
 * mean of a; the whole pool's when cap is the pool size) and its decision. On hard
 * decisions the gap of counts is compared exactly (countGapDecision; sums of 0/1 values
 * are the positives, exact in doubles); on scores or logits the plug-in mean gap is
 * compared in floating point (fixedSampleDecision). A group without a row among them is
 * inconclusive (no verdict without evidence). O(1).
 */
export function fixedSampleOf(
  prepared: PreparedAudit,
  sums: QueriedSums,
  cap: number,
  tolerance: number,
): { fixedDecision: FixedSampleDecision; fixedGap: number } {
  const wholePool = cap === prepared.size;
  const fixedGap = wholePool ? prepared.meanGap : sums.sumB / sums.countB - sums.sumA / sums.countA;
  if (prepared.family === 'gaussian') return { fixedDecision: fixedSampleDecision(fixedGap, tolerance), fixedGap };
  const fixedDecision = wholePool
    ? countGapDecision(prepared.countA, prepared.totalA, prepared.countB, prepared.totalB, tolerance)
    : countGapDecision(sums.countA, sums.sumA, sums.countB, sums.sumB, tolerance);
  return { fixedDecision, fixedGap };
}

/** Where queryInTurn's walk stopped: the queries made, the counts and sums, the last statistic and the decision. */
interface QueryWalk {
  position: number;
  countA: number;
  sumA: number;
  countB: number;
  sumB: number;
  statistic: number;
  decision: SequentialDecision;
}

/** The prepared stream as the lazy kernels take it (each null unless it is of that class and no trajectory is kept). */
interface LazyStreams {
  readonly bernoulli: BernoulliGlrStream | null;
  readonly gaussian: GaussianGlrStream | null;
}

/** A walk's decision from a fused loop's `crossing` (a NaN statistic throws, as queryInTurn does). */
function crossingDecision(crossing: number): SequentialDecision {
  if (crossing === QUERY_NAN) throw new Error(NAN_STATISTIC);
  return crossing === 0 ? 'inconclusive' : crossing > 0 ? 'reject' : 'accept';
}

/**
 * Paper A's Bernoulli loop inside the stream (queryShuffled on the packed codes: no call per
 * query, the same draws and statistics as queryInTurn). Kernel: no validation.
 */
function queryFused(
  codes: Uint8Array,
  swaps: Int32Array,
  bernoulli: BernoulliGlrStream,
  cap: number,
  alea: Float64Array,
  thresholds: { readonly upper: number; readonly lower: number; readonly minimum: number },
): QueryWalk {
  const { upper, lower, minimum } = thresholds;
  const position = bernoulli.queryShuffled(codes, swaps, cap, alea, upper, lower, minimum);
  const decision = crossingDecision(bernoulli.crossing);
  const { countA, positivesA, countB, positivesB } = bernoulli.counts;
  return { position, countA, sumA: positivesA, countB, sumB: positivesB, statistic: 0, decision };
}

/** queryFusedGaussian's counts and sums of the queried values per group (one array, reused). */
const queriedSums = new Float64Array(4);

/**
 * Paper A's proxy (score or logit) loop inside the Gaussian stream (queryShuffled on the order:
 * no call per query, the same draws, statistics and sums as queryInTurn). Kernel: no validation.
 */
function queryFusedGaussian(
  prepared: PreparedAudit,
  gaussian: GaussianGlrStream,
  cap: number,
  alea: Float64Array,
  thresholds: { readonly upper: number; readonly lower: number; readonly minimum: number },
): QueryWalk {
  const { group, value, order, swaps } = prepared;
  const { upper, lower, minimum } = thresholds;
  const position = gaussian.queryShuffled(order, swaps, group, value, cap, alea, upper, lower, minimum, queriedSums);
  const decision = crossingDecision(gaussian.crossing);
  const countA = queriedSums[0]!;
  const sumA = queriedSums[1]!;
  const countB = queriedSums[2]!;
  const sumB = queriedSums[3]!;
  return { position, countA, sumA, countB, sumB, statistic: 0, decision };
}

/**
 * continueCodedOrder(codes, swaps, sums, position, cap, alea) is continueRandomOrder for paper
 * A's fused loop: the partial shuffle of the packed codes (2 group + decision) with Alea's steps
 * on locals, the decisions added to `sums`. Returns cap. O(cap - position).
 */
function continueCodedOrder(
  codes: Uint8Array,
  swaps: Int32Array,
  sums: QueriedSums,
  position: number,
  cap: number,
  alea: Float64Array,
): number {
  let { countA, sumA, countB, sumB } = sums;
  const length = codes.length;
  // Alea's constants on locals: an imported binding is re-read (and checked) at every use in a loop.
  const multiplier = ALEA_MULTIPLIER;
  const scale = ALEA_SCALE;
  let s0 = alea[0];
  let s1 = alea[1];
  let s2 = alea[2];
  let carry = alea[3];
  for (; position < cap; position++) {
    const t = multiplier * s0 + carry * scale;
    s0 = s1;
    s1 = s2;
    carry = Math.floor(t);
    s2 = t - carry;
    const partner = position + Math.floor(s2 * (length - position));
    const code = codes[partner];
    codes[partner] = codes[position];
    codes[position] = code;
    swaps[position] = partner;
    const b = code >> 1;
    const x = code & 1;
    countA += 1 - b;
    sumA += (1 - b) & x;
    countB += b;
    sumB += b & x;
  }
  alea[0] = s0;
  alea[1] = s1;
  alea[2] = s2;
  alea[3] = carry;
  sums.countA = countA;
  sums.sumA = sumA;
  sums.countB = countB;
  sums.sumB = sumB;
  return position;
}

/**
 * The audit's queries one call per query (every case but paper A's fused Bernoulli loop): the
 * pool's order or the partial shuffle (Alea steps inline when the generator is createRandom's),
 * each row folded into the stream, lazily (addWithin) unless a trajectory is recorded, until a
 * threshold is crossed with both groups at the start rule, or cap queries. Kernel: no validation.
 */
function queryInTurn(
  prepared: PreparedAudit,
  cap: number,
  random: Random | null,
  alea: Float64Array | null,
  streams: LazyStreams,
  thresholds: { readonly upper: number; readonly lower: number; readonly minimum: number },
  trajectory: Float64Array | null,
): QueryWalk {
  const { group, value, order, swaps, stream } = prepared;
  const { upper, lower, minimum } = thresholds;
  const shuffle = random !== null;
  const { bernoulli, gaussian } = streams;
  const within = bernoulli ?? gaussian;
  let countA = 0;
  let countB = 0;
  let sumA = 0;
  let sumB = 0;
  let statistic = 0;
  let decision: SequentialDecision = 'inconclusive';
  let position = 0;
  const length = order.length;
  // Alea's constants on locals: an imported binding is re-read (and checked) at every use in a loop.
  const multiplier = ALEA_MULTIPLIER;
  const scale = ALEA_SCALE;
  let s0 = alea === null ? 0 : alea[0];
  let s1 = alea === null ? 0 : alea[1];
  let s2 = alea === null ? 0 : alea[2];
  let carry = alea === null ? 0 : alea[3];
  while (position < cap) {
    let row = position;
    if (alea !== null) {
      const t = multiplier * s0 + carry * scale;
      s0 = s1;
      s1 = s2;
      carry = Math.floor(t);
      s2 = t - carry;
      const partner = position + Math.floor(s2 * (length - position));
      row = order[partner];
      order[partner] = order[position];
      order[position] = row;
      swaps[position] = partner;
    } else if (shuffle) {
      row = shufflePosition(order, swaps, position, random!);
    }
    const g = group[row];
    const x = value[row];
    countA += 1 - g;
    sumA += (1 - g) * x;
    countB += g;
    sumB += g * x;
    // Both streams skip the logarithms while an exact bound keeps both thresholds out of reach.
    if (within !== null) {
      position++;
      const evaluated =
        bernoulli !== null ? bernoulli.addWithin(g, x, upper, lower) : gaussian!.addWithin(g, x, upper, lower);
      if (!evaluated) continue;
      statistic = within.statistic;
      if (Number.isNaN(statistic)) throw new Error(NAN_STATISTIC);
    } else {
      stream.add(g, x);
      statistic = stream.statistic;
      if (Number.isNaN(statistic)) throw new Error(NAN_STATISTIC);
      if (trajectory !== null) trajectory[position] = statistic;
      position++;
    }
    if (statistic >= upper || statistic <= lower) {
      if (stream.ready && countA >= minimum && countB >= minimum) {
        decision = statistic >= upper ? 'reject' : 'accept';
        break;
      }
    }
  }
  if (alea !== null) {
    alea[0] = s0;
    alea[1] = s1;
    alea[2] = s2;
    alea[3] = carry;
  }
  return { position, countA, sumA, countB, sumB, statistic, decision };
}

/**
 * runSequentialAudit(prepared, settings, random, options) runs one sequential GLR audit
 * (paper A section 3.5) of the prepared pool's access regime against its tolerance
 * (toleranceOfAccess: δ for decisions, scoreTolerance or logitTolerance for the proxy
 * tests): rows are queried in a uniformly random order without replacement (a partial
 * Fisher-Yates shuffle driven by `random`, one draw per position, so only the positions
 * used cost anything) or, when `random` is null, in the pool's order; each query folds one observation
 * into the statistic in O(1); once the statistic is defined (both groups observed; for
 * the Gaussian also a positive pooled variance) and each group has at least
 * settings.minimumPerGroup observations (default 1) the audit rejects at statistic >= upper,
 * accepts at <= lower, and is inconclusive when min(B, pool size) queries pass without
 * either. The fixed-sample decision uses the first min(B, pool size) rows of the same
 * order (exact on counts for hard decisions, see fixedSampleOf). Running time O(min(B, pool size)) (O(queries) with
 * fixedSample: false); no
 * allocation proportional to the pool (the prepared scratch is shuffled and restored).
 * The result depends only on the prepared pool, the settings and the generator's stream.
 * Kernel: the settings are trusted (validated once against auditSettingsSchema, as
 * auditPool, the CLI and the sequential-audit kind do).
 */
export function runSequentialAudit(
  prepared: PreparedAudit,
  settings: Pick<
    AuditSettings,
    'tolerance' | 'scoreTolerance' | 'logitTolerance' | 'budget' | 'alpha' | 'beta' | 'minimumPerGroup'
  >,
  random: Random | null,
  options: SequentialAuditOptions = {},
): SequentialAuditResult {
  const { upper, lower } = waldThresholds(settings.alpha, settings.beta);
  const tolerance = toleranceOfAccess(settings, prepared.access);
  const size = prepared.size;
  const cap = Math.min(settings.budget, size);
  const shuffle = random !== null;
  const wantFixed = options.fixedSample !== false;
  const minimum = settings.minimumPerGroup ?? 1;
  const trajectory = options.trajectory === true ? new Float64Array(cap) : null;
  const { order, swaps, stream } = prepared;
  stream.reset(tolerance);
  // One call site per stream class, so each stays monomorphic (a worker runs cells of both families).
  const streams: LazyStreams = {
    bernoulli: trajectory === null && stream instanceof BernoulliGlrStream ? stream : null,
    gaussian: trajectory === null && stream instanceof GaussianGlrStream ? stream : null,
  };
  // A generator of createRandom: its Alea steps and the shuffle step taken inline (the same draws).
  const alea = shuffle ? aleaStateOf(random!) : null;
  const thresholds = { upper, lower, minimum };
  // Paper A's loop shuffles the packed codes in place of `order` (both are restored after each replicate).
  const codes = streams.bernoulli !== null && alea !== null ? prepared.codes : null;
  const walk =
    codes !== null
      ? queryFused(codes, swaps, streams.bernoulli!, cap, alea!, thresholds)
      : streams.gaussian !== null && alea !== null
        ? queryFusedGaussian(prepared, streams.gaussian, cap, alea, thresholds)
        : queryInTurn(prepared, cap, random, alea, streams, thresholds, trajectory);
  const { countA, sumA, countB, sumB, decision } = walk;
  let { position, statistic } = walk;
  const within = streams.bernoulli ?? streams.gaussian;
  if (within !== null) {
    within.settle();
    statistic = within.statistic;
  }
  const queries = position;
  let fixed: { fixedDecision: FixedSampleDecision | null; fixedGap: number } = {
    fixedDecision: null,
    fixedGap: Number.NaN,
  };
  if (wantFixed) {
    const sums = { countA, sumA, countB, sumB };
    if (cap !== size) {
      position =
        codes !== null
          ? continueCodedOrder(codes, swaps, sums, position, cap, alea!)
          : continueRandomOrder(prepared, sums, position, cap, shuffle, random);
    }
    fixed = fixedSampleOf(prepared, sums, cap, tolerance);
  }
  if (codes !== null) restoreScratch(codes, prepared.rowCodes!, swaps, position);
  else if (shuffle) restoreScratch(order, prepared.identity, swaps, position);
  return {
    decision,
    queries,
    statistic,
    fixedDecision: fixed.fixedDecision,
    fixedSamples: cap,
    fixedGap: fixed.fixedGap,
    ...(trajectory !== null ? { trajectory: trajectory.subarray(0, queries) } : {}),
  };
}

import { countGapDecision } from '../../stats/count-gap-comparison.js';
import type { Random } from '../../util/random.js';
import type { ShuffledQueryOrder } from '../query-order.js';
import type { CertificationSettings, OutcomeCounts } from './certify-count-paths.js';
import type { LazyBernoulliGlr } from './lazy-bernoulli-glr.js';
import type { CountCell, PathExtremes, PathSettings, ThresholdPathCounts } from './threshold-paths.js';

/** Queries drawn per extension of a shared path (CoupledQueries.ensure). */
const BLOCK = 256;

/**
 * The query sequence of one simulated audit shared by every decision-access cell of a
 * calibration (the cells have the same group sizes and differ only in their positives).
 * Query t hits group groups[t] and that group's row of rank ranks[t]: the groups come
 * as in the audit's order (random: group b with probability rows of b left / rows left;
 * balanced: a, b, a, b, ..., the other once one is exhausted), the ranks from a partial
 * Fisher-Yates shuffle of each group's rows. A cell with p positives in a group reads
 * the decision 1 exactly when the rank is below p, so each cell's queries follow exactly
 * the law of querying a uniformly shuffled pool of its counts, while one draw of the
 * sequence serves every cell (the cells' paths are dependent; each cell's paths are
 * independent of each other, which is all its Clopper-Pearson bound needs, and the
 * bounds of different cells are combined by a union bound, which needs no independence).
 * Queries are drawn lazily, in blocks, as far as some cell reads.
 * @example
 * const queries = new CoupledQueries(9158, 4409, 4000, 'random');
 * queries.start(random);
 * const drawn = queries.ensure(0); // queries 0 .. drawn - 1 are drawn
 */
export class CoupledQueries {
  readonly groups: Uint8Array;
  readonly ranks: Int32Array;
  /** Queries drawn so far on this path. */
  drawn = 0;
  private seenA = 0;
  private seenB = 0;
  private readonly orderA: Int32Array;
  private readonly orderB: Int32Array;
  /** Per group and rank: path x (cap + 1) + the query that drew it, on the path it was last drawn. */
  private readonly stampA: Float64Array;
  private readonly stampB: Float64Array;
  private path = 0;
  private random: Random = () => 0;

  constructor(
    readonly countA: number,
    readonly countB: number,
    /** min(budget, countA + countB): the most queries of a path. */
    readonly cap: number,
    readonly order: ShuffledQueryOrder,
  ) {
    this.groups = new Uint8Array(cap);
    this.ranks = new Int32Array(cap);
    this.orderA = identity(countA);
    this.orderB = identity(countB);
    this.stampA = new Float64Array(countA).fill(-1);
    this.stampB = new Float64Array(countB).fill(-1);
  }

  /**
   * start(random) begins a new path drawn from `random`. The shuffles are not undone
   * between paths: a partial Fisher-Yates shuffle gives a uniform sample in uniform order
   * from any starting arrangement.
   */
  start(random: Random): void {
    this.random = random;
    this.drawn = 0;
    this.seenA = 0;
    this.seenB = 0;
    this.path++;
  }

  /** drawnAt(group, rank) is the query of this path that drew that group's row of that rank, -1 if none yet. */
  drawnAt(group: number, rank: number): number {
    const stamp = (group === 0 ? this.stampA : this.stampB)[rank];
    const first = this.path * (this.cap + 1);
    return stamp >= first ? stamp - first : -1;
  }

  /** ensure(t) draws queries up to at least t + 1 (at most cap) and returns how many are drawn. */
  ensure(t: number): number {
    if (t < this.drawn) return this.drawn;
    const { groups, ranks, orderA, orderB, stampA, stampB, countA, countB, random } = this;
    let { seenA, seenB } = this;
    const first = this.path * (this.cap + 1);
    const end = Math.min(this.cap, Math.max(t + 1, this.drawn + BLOCK));
    const balanced = this.order === 'balanced';
    for (let s = this.drawn; s < end; s++) {
      const leftA = countA - seenA;
      const leftB = countB - seenB;
      let group: number;
      if (balanced) {
        group = (s & 1) === 0 ? 0 : 1;
        if (group === 0 ? leftA === 0 : leftB === 0) group = 1 - group;
      } else group = random() * (leftA + leftB) < leftB ? 1 : 0;
      groups[s] = group;
      let rank: number;
      if (group === 0) {
        rank = shuffleStep(orderA, seenA++, random);
        stampA[rank] = first + s;
      } else {
        rank = shuffleStep(orderB, seenB++, random);
        stampB[rank] = first + s;
      }
      ranks[s] = rank;
    }
    this.drawn = end;
    this.seenA = seenA;
    this.seenB = seenB;
    return end;
  }
}

function identity(length: number): Int32Array {
  const values = new Int32Array(length);
  for (let i = 0; i < length; i++) values[i] = i;
  return values;
}

/** Step `position` of a partial Fisher-Yates shuffle: the entry it brings to `position`. */
function shuffleStep(values: Int32Array, position: number, random: Random): number {
  const partner = position + Math.floor(random() * (values.length - position));
  const held = values[partner];
  values[partner] = values[position];
  values[position] = held;
  return held;
}

/**
 * recordCoupledPath(cell, queries, glr, settings, extremes, into) follows the Bernoulli
 * GLR of `cell` along the current shared path (queries.start done) and adds its record to
 * `into`, as a path simulated on its own would: the GLR evaluated only where it
 * may change the record (LazyBernoulliGlr.mayReach), the path stopped once nothing can.
 * O(queries) counter updates. Kernel: no validation (glr capacity >= queries.cap).
 */
export function recordCoupledPath(
  cell: CountCell,
  queries: CoupledQueries,
  glr: LazyBernoulliGlr,
  settings: PathSettings,
  extremes: PathExtremes,
  into: ThresholdPathCounts,
): void {
  glr.reset(settings.tolerance);
  extremes.start();
  walkRecord(cell, queries, glr, settings, extremes, 0);
  extremes.finish(into);
}

/**
 * recordCoupledPair(cell, other, row, queries, glr, spare, settings, extremes, otherExtremes,
 * into, intoOther) is recordCoupledPath for both cells of a pair (row = pairRow(cell, other)),
 * with the same records: up to the query that reads `row` both see the same statistic, so one
 * walk evaluates it wherever either record may change (an evaluation a record does not need
 * is provably inside its targets and changes none of its bins inside the tuning window), and
 * each record observes it. From that query each cell walks on alone (`other` from a copy of
 * the state there, in `spare`). O(queries).
 */
export function recordCoupledPair(
  cell: CountCell,
  other: CountCell,
  row: PairRow,
  queries: CoupledQueries,
  glr: LazyBernoulliGlr,
  spare: LazyBernoulliGlr,
  settings: PathSettings,
  extremes: PathExtremes,
  otherExtremes: PathExtremes,
  into: ThresholdPathCounts,
  intoOther: ThresholdPathCounts,
): void {
  glr.reset(settings.tolerance);
  extremes.start();
  otherExtremes.start();
  const { groups, ranks, cap } = queries;
  const minimum = settings.minimumPerGroup;
  const positivesA = cell.positivesA;
  const positivesB = cell.positivesB;
  let done = false;
  let otherDone = false;
  let above = Number.POSITIVE_INFINITY;
  let below = Number.NEGATIVE_INFINITY;
  let watch = -1;
  let t = 0;
  walk: while (t < cap) {
    const end = queries.ensure(t);
    if (watch < 0) watch = queries.drawnAt(row.group, row.rank);
    const stop = watch >= t && watch < end ? watch : end;
    while (t < stop) {
      t = glr.advance(groups, ranks, t, stop, positivesA, positivesB, minimum, above, below);
      if (!glr.reached) break;
      const statistic = glr.evaluate();
      if (!done) done = extremes.observe(statistic);
      if (!otherDone) otherDone = otherExtremes.observe(statistic);
      if (done && otherDone) break walk;
      above = Math.min(
        done ? Number.POSITIVE_INFINITY : extremes.reachAbove(),
        otherDone ? Number.POSITIVE_INFINITY : otherExtremes.reachAbove(),
      );
      below = Math.max(
        done ? Number.NEGATIVE_INFINITY : extremes.reachBelow(),
        otherDone ? Number.NEGATIVE_INFINITY : otherExtremes.reachBelow(),
      );
    }
    if (t === watch) {
      // The row both read differently is next: each walks on alone.
      if (!otherDone) {
        spare.copyFrom(glr);
        walkRecord(other, queries, spare, settings, otherExtremes, t);
      }
      if (!done) walkRecord(cell, queries, glr, settings, extremes, t);
      break;
    }
  }
  extremes.finish(into);
  otherExtremes.finish(intoOther);
}

/**
 * walkRecord(cell, queries, glr, settings, extremes, t) follows cell's statistic from query t
 * (glr holding the state after t queries, extremes its record so far) until nothing can change
 * the record or queries.cap.
 */
function walkRecord(
  cell: CountCell,
  queries: CoupledQueries,
  glr: LazyBernoulliGlr,
  settings: PathSettings,
  extremes: PathExtremes,
  from: number,
): void {
  const { groups, ranks, cap } = queries;
  const minimum = settings.minimumPerGroup;
  const positivesA = cell.positivesA;
  const positivesB = cell.positivesB;
  let above = from === 0 ? Number.POSITIVE_INFINITY : extremes.reachAbove();
  let below = from === 0 ? Number.NEGATIVE_INFINITY : extremes.reachBelow();
  let t = from;
  walk: while (t < cap) {
    const end = queries.ensure(t);
    while (t < end) {
      t = glr.advance(groups, ranks, t, end, positivesA, positivesB, minimum, above, below);
      if (!glr.reached) break;
      if (extremes.observe(glr.evaluate())) break walk;
      above = extremes.reachAbove();
      below = extremes.reachBelow();
    }
  }
}

/**
 * decideCoupledPath(cell, queries, glr, settings, into) runs the GLR test at
 * settings.upper and settings.lower on `cell` along the current shared path, as
 * runTestAudit with GlrThresholdTest does on the cell's pool (reject once the statistic is >= upper,
 * accept once <= lower, once both groups have minimumPerGroup observations; inconclusive
 * after queries.cap; the statistic evaluated only where it may reach a threshold), and
 * adds the decision and its queries to `into`. With `exhaustion`, a path that reads the
 * whole pool undecided decides its known gap exactly, as real audits do (the price). O(queries). Kernel: no validation.
 */
export function decideCoupledPath(
  cell: CountCell,
  queries: CoupledQueries,
  glr: LazyBernoulliGlr,
  settings: CertificationSettings,
  into: OutcomeCounts,
  exhaustion = false,
): void {
  glr.reset(settings.tolerance);
  const decision = walkTest(cell, queries, glr, settings, 0, null);
  addOutcome(cell, settings, into, decision, walked.t, exhaustion);
}

/**
 * The one row where two cells of a pair read differently: `other` is `cell` with one more
 * positive in one group, so the row of that group whose rank is cell's positives reads 1
 * in `other` and 0 in `cell`, and every other row reads the same in both. Null when the two
 * cells differ otherwise.
 */
export interface PairRow {
  readonly group: number;
  readonly rank: number;
}

/** pairRow(cell, other) is the row where the two read differently when other is cell plus one positive, else null. */
export function pairRow(cell: CountCell, other: CountCell): PairRow | null {
  if (cell.countA !== other.countA || cell.countB !== other.countB) return null;
  if (cell.positivesA === other.positivesA && other.positivesB === cell.positivesB + 1)
    return { group: 1, rank: cell.positivesB };
  if (cell.positivesB === other.positivesB && other.positivesA === cell.positivesA + 1)
    return { group: 0, rank: cell.positivesA };
  return null;
}

/**
 * decideCoupledPair(cell, other, row, queries, glr, spare, settings, intoCell, intoOther, exhaustion)
 * is decideCoupledPath for both cells of a pair (row = pairRow(cell, other)), with the same
 * outcomes: up to the query that reads `row` both cells see the same observations, and so
 * (with the same thresholds) the same evaluations and decisions. The walk of `cell` keeps a
 * copy of its state there (in `spare`); `other` is walked from that copy only when the row is
 * read before cell's decision, else it takes cell's decision and query count. O(queries).
 */
export function decideCoupledPair(
  cell: CountCell,
  other: CountCell,
  row: PairRow,
  queries: CoupledQueries,
  glr: LazyBernoulliGlr,
  spare: LazyBernoulliGlr,
  settings: CertificationSettings,
  intoCell: OutcomeCounts,
  intoOther: OutcomeCounts,
  exhaustion = false,
): void {
  glr.reset(settings.tolerance);
  const decision = walkTest(cell, queries, glr, settings, 0, row, spare);
  const t = walked.t;
  const split = walked.split;
  addOutcome(cell, settings, intoCell, decision, t, exhaustion);
  if (split < 0) {
    addOutcome(other, settings, intoOther, decision, t, exhaustion);
    return;
  }
  const otherDecision = walkTest(other, queries, spare, settings, split, null);
  addOutcome(other, settings, intoOther, otherDecision, walked.t, exhaustion);
}

type Decision = 'reject' | 'accept' | 'inconclusive';

/** Where walkTest stopped: the queries read, and the query at which it copied its state (-1 when it did not). */
const walked = { t: 0, split: -1 };

/**
 * walkTest(cell, queries, glr, settings, t, row, spare) runs the test on `cell` from query t
 * (glr holding the state after t queries) to a decision or queries.cap; with a row, it copies
 * its state into `spare` just before the query that reads that row (if any is read before the
 * decision). Returns the decision; walked says where.
 */
function walkTest(
  cell: CountCell,
  queries: CoupledQueries,
  glr: LazyBernoulliGlr,
  settings: CertificationSettings,
  from: number,
  row: PairRow | null,
  spare?: LazyBernoulliGlr,
): Decision {
  const { groups, ranks, cap } = queries;
  const { minimumPerGroup, upper, lower } = settings;
  const positivesA = cell.positivesA;
  const positivesB = cell.positivesB;
  let t = from;
  let split = -1;
  let watch = row === null ? Number.POSITIVE_INFINITY : -1;
  let decision: Decision = 'inconclusive';
  walk: while (t < cap) {
    const end = queries.ensure(t);
    // Without a row, watch is Infinity from the start: the row is looked up only while it is still to be drawn.
    if (watch < 0) watch = queries.drawnAt((row as PairRow).group, (row as PairRow).rank);
    const stop = watch >= t && watch < end ? watch : end;
    while (t < stop) {
      t = glr.advance(groups, ranks, t, stop, positivesA, positivesB, minimumPerGroup, upper, lower);
      if (!glr.reached) break;
      const statistic = glr.evaluate();
      if (statistic >= upper) {
        decision = 'reject';
        break walk;
      }
      if (statistic <= lower) {
        decision = 'accept';
        break walk;
      }
    }
    if (t === watch) {
      (spare as LazyBernoulliGlr).copyFrom(glr);
      split = watch;
      watch = Number.POSITIVE_INFINITY;
    }
  }
  walked.t = t;
  walked.split = split;
  return decision;
}

function addOutcome(
  cell: CountCell,
  settings: CertificationSettings,
  into: OutcomeCounts,
  found: Decision,
  t: number,
  exhaustion: boolean,
): void {
  let decision = found;
  if (exhaustion && decision === 'inconclusive' && t === cell.countA + cell.countB) {
    // The pool read to its end: its gap is known, decided exactly (GlrThresholdTest's exhaustion rule on counts).
    const { countA, positivesA, countB, positivesB } = cell;
    decision = countGapDecision(countA, positivesA, countB, positivesB, settings.tolerance);
  }
  into.paths++;
  into[decision]++;
  into.queries += t;
}

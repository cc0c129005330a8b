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
  }

  /** ensure(t) draws queries up to at least t + 1 (at most cap) and returns how many are drawn. */
  ensure(t: number): number {
    if (t < this.drawn) return this.drawn;
    const { groups, ranks, orderA, orderB, countA, countB, random } = this;
    let { seenA, seenB } = this;
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
      if (group === 0) ranks[s] = shuffleStep(orderA, seenA++, random);
      else ranks[s] = shuffleStep(orderB, seenB++, random);
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
  const { groups, ranks, cap } = queries;
  const minimum = settings.minimumPerGroup;
  const positivesA = cell.positivesA;
  const positivesB = cell.positivesB;
  let above = Number.POSITIVE_INFINITY;
  let below = Number.NEGATIVE_INFINITY;
  let t = 0;
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
  extremes.finish(into);
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
  const { groups, ranks, cap } = queries;
  const { minimumPerGroup, upper, lower } = settings;
  const positivesA = cell.positivesA;
  const positivesB = cell.positivesB;
  let t = 0;
  let decision: 'reject' | 'accept' | 'inconclusive' = 'inconclusive';
  walk: while (t < cap) {
    const end = queries.ensure(t);
    while (t < end) {
      t = glr.advance(groups, ranks, t, end, positivesA, positivesB, minimumPerGroup, upper, lower);
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
  }
  if (exhaustion && decision === 'inconclusive' && t === cell.countA + cell.countB) {
    // The pool read to its end: its gap is known, decided exactly (GlrThresholdTest's exhaustion rule on counts).
    const { countA, positivesA, countB, positivesB } = cell;
    decision = countGapDecision(countA, positivesA, countB, positivesB, settings.tolerance);
  }
  into.paths++;
  into[decision]++;
  into.queries += t;
}

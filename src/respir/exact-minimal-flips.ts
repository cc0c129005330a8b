import { countGapExceedsTolerance } from '../stats/count-gap-comparison.js';
import { inputError } from '../util/errors.js';
import { validateCandidatePopulation } from './candidate-population.js';
import {
  type AuditOutcomeProbabilities,
  type BoundedProbability,
  createPassProbabilityEvaluator,
  type ExactAuditSetting,
  type PassProbabilityEvaluator,
} from './exact-pass-probability.js';

/** What the exact minimum is asked for: the audit, C's positives before manipulation, and 1 − δ. */
export interface ExactMinimalFlipsSetting extends ExactAuditSetting {
  /** 1 − δ: the pass probability the provider wants. */
  passProbability: number;
}

/** Tuning of the search; the defaults suit paper B's sizes. */
export interface ExactMinimalFlipsOptions {
  /** Tail bound of every hypergeometric window (default 1e-13). */
  tailBound?: number;
  /**
   * Evaluations of the pass probability after which the search stops and reports a
   * bracket [lowerBound, upperBound] instead of the exact minimum (default 4000).
   */
  maxEvaluations?: number;
}

/** The provider's cheapest way to pass an oblivious audit with probability ≥ 1 − δ. */
export interface ExactMinimalFlips {
  /** The minimum number of output flips on C's metric rows; null when not certified or unreachable. */
  flips: number | null;
  /** Certified: every manipulation with fewer flips passes with probability < 1 − δ. Null when unreachable. */
  lowerBound: number | null;
  /** Certified: a manipulation with this many flips passes with probability ≥ 1 − δ. Null when unreachable. */
  upperBound: number | null;
  /** lowerBound === upperBound. */
  exact: boolean;
  /** False when no manipulation reaches 1 − δ (a group is too often absent from S). */
  reachable: boolean;
  /** |d_C| ≤ ε already (compared exactly on counts): nothing to hide, 0 flips. */
  withinTolerance: boolean;
  /** C's positives per group before manipulation, P₀ and P₁. */
  originalPositives: [number, number];
  /** The strongest adversary's positives after its upperBound flips, P₀' and P₁'. */
  positives: [number, number];
  /** P₀' − P₀ and P₁' − P₁: net flips per group (positive: 0→1 flips). */
  changes: [number, number];
  /** The exact pass probability at `positives`, with its enclosure. */
  passProbability: BoundedProbability;
  /** The pass probability without manipulation. */
  honestPassProbability: BoundedProbability;
  /**
   * P(both groups have a metric row in S): what making all outputs equal reaches, the
   * most any manipulation can (undefined when |d_C| ≤ ε, where it is not computed).
   */
  maximumPassProbability?: BoundedProbability;
  /** Pass probabilities computed. */
  evaluations: number;
}

interface Point {
  u: number;
  v: number;
}

/** How far the ascent from the nearest points of {A ≥ 1 − δ} goes before the corner search takes over. */
const climbSteps = 24;

/**
 * exactMinimalFlipsWithEvaluator(evaluator, positives, passProbability, maxEvaluations)
 * is exactMinimalFlips on a prepared evaluator (the same audit, several candidate sets
 * or targets); see exactMinimalFlips for the method. Inputs are trusted.
 */
export function exactMinimalFlipsWithEvaluator(
  evaluator: PassProbabilityEvaluator,
  positives: readonly [number, number],
  passProbability: number,
  maxEvaluations = 4000,
): ExactMinimalFlips {
  const { population, tolerance } = evaluator.setting;
  const [eligible0, eligible1] = population.eligibleSizes;
  const [start0, start1] = positives;
  const target = passProbability;
  const startEvaluations = evaluator.evaluations;
  const computed = new Map<number, AuditOutcomeProbabilities>();
  const at = (u: number, v: number): AuditOutcomeProbabilities => {
    const key = u * (eligible1 + 1) + v;
    let outcome = computed.get(key);
    if (outcome === undefined) {
      outcome = evaluator.outcomes(u, v);
      computed.set(key, outcome);
    }
    return outcome;
  };
  const honest = at(start0, start1).pass;
  const result = (fields: Partial<ExactMinimalFlips> & { point: Point | null }): ExactMinimalFlips => {
    const point = fields.point ?? { u: start0, v: start1 };
    const { point: _unused, ...rest } = fields;
    return {
      flips: null,
      lowerBound: null,
      upperBound: null,
      exact: false,
      reachable: true,
      withinTolerance: false,
      originalPositives: [start0, start1],
      positives: [point.u, point.v],
      changes: [point.u - start0, point.v - start1],
      passProbability: at(point.u, point.v).pass,
      honestPassProbability: honest,
      ...rest,
      evaluations: evaluator.evaluations - startEvaluations,
    };
  };
  if (!countGapExceedsTolerance(eligible0, start0, eligible1, start1, tolerance)) {
    return result({ flips: 0, lowerBound: 0, upperBound: 0, exact: true, withinTolerance: true, point: null });
  }
  // All outputs equal (every 1 flipped to 0, or every 0 to 1) makes d_S = 0 on every S:
  // the best any manipulation can do is P(both groups have a metric row in S).
  const allZero = at(0, 0).pass;
  if (honest.lower >= target)
    return result({
      flips: 0,
      lowerBound: 0,
      upperBound: 0,
      exact: true,
      maximumPassProbability: allZero,
      point: null,
    });
  if (allZero.lower < target) return result({ reachable: false, maximumPassProbability: allZero, point: null });

  // Oriented coordinates: the start's gap is positive (group 1's rate above group 0's),
  // so the binding side P(d_S ≤ ε) rises with u and falls with v. When group 0 has the
  // higher rate, u ↦ E₀ − u and v ↦ E₁ − v (complementing every output) maps one case
  // onto the other: the audit only sees |d_S|.
  const flip = start1 * eligible0 - start0 * eligible1 < 0;
  const toOriginal = (u: number, v: number): Point => (flip ? { u: eligible0 - u, v: eligible1 - v } : { u, v });
  const oriented = (u: number, v: number) => {
    const p = toOriginal(u, v);
    return at(p.u, p.v);
  };
  const binding = (u: number, v: number) => {
    const outcome = oriented(u, v);
    return flip ? outcome.gapAtLeastMinusTolerance : outcome.gapAtMostTolerance;
  };
  const other = (u: number, v: number) => {
    const outcome = oriented(u, v);
    return flip ? outcome.gapAtMostTolerance : outcome.gapAtLeastMinusTolerance;
  };
  const passes = (u: number, v: number) => oriented(u, v).pass;
  const U0 = flip ? eligible0 - start0 : start0;
  const V0 = flip ? eligible1 - start1 : start1;
  const distance = (u: number, v: number) => Math.abs(u - U0) + Math.abs(v - V0);
  const budgetLeft = () => evaluator.evaluations - startEvaluations < maxEvaluations;

  // Upper bound: the all-zero and all-one corners pass (checked above for all-zero; the
  // all-one corner has the same law by symmetry).
  let best: Point = toOrientedCorner(U0, V0, eligible0, eligible1);
  let upper = distance(best.u, best.v);
  const consider = (u: number, v: number): boolean => {
    const cost = distance(u, v);
    if (cost < upper || (cost === upper && passes(u, v).value > passes(best.u, best.v).value)) {
      if (passes(u, v).lower >= target) {
        best = { u, v };
        upper = cost;
        return true;
      }
    }
    return false;
  };

  // 1. Lower bound from the binding side alone. It is monotone (an extra positive in
  // group 0 can only raise P(d_S ≤ ε), one in group 1 only lower it: hypergeometric
  // counts are stochastically increasing in the positives), so S_A = {binding ≥ 1 − δ}
  // is closed under u↑ and v↓ and its ℓ1-nearest points lie at u ≥ U0, v ≤ V0, at
  // (max(U0, α(v)), v) with α(v) = min{u : binding(u, v) ≥ 1 − δ}, nondecreasing in v.
  // Every passing point lies in S_A, so min over v of (V0 − v) + max(0, α(v) − U0)
  // bounds the minimum from below. Branch and bound over v finds it with α computed by
  // bisection at O(log) points.
  const none = eligible0 + 1;
  const alpha = (v: number, low: number, high: number): number => {
    if (low > high) return none;
    if (binding(low, v).upper >= target) return low;
    if (binding(high, v).upper < target) return none;
    let failing = low;
    let passing = high;
    while (passing - failing > 1) {
      const middle = Math.floor((failing + passing) / 2);
      if (binding(middle, v).upper >= target) passing = middle;
      else failing = middle;
    }
    return passing;
  };
  const costAt = (v: number, a: number) => (a === none ? Number.POSITIVE_INFINITY : V0 - v + Math.max(0, a - U0));
  let lowerA = Number.POSITIVE_INFINITY;
  let ties: Point[] = [];
  const record = (v: number, a: number) => {
    const cost = costAt(v, a);
    if (cost < lowerA) {
      lowerA = cost;
      ties = [];
    }
    if (cost === lowerA && cost !== Number.POSITIVE_INFINITY) ties.push({ u: Math.max(U0, a), v });
  };
  const topAlpha = alpha(V0, U0, eligible0);
  record(V0, topAlpha);
  const bottom = Math.max(0, V0 - Math.min(upper, lowerA));
  if (bottom < V0) {
    const bottomAlpha = alpha(bottom, U0, topAlpha === none ? eligible0 : topAlpha);
    record(bottom, bottomAlpha);
    const stack: Array<[number, number, number, number]> = [[bottom, bottomAlpha, V0, topAlpha]];
    while (stack.length > 0) {
      const [low, lowAlpha, high, highAlpha] = stack.pop() as [number, number, number, number];
      if (high - low <= 1) continue;
      const bound = lowAlpha === none ? Number.POSITIVE_INFINITY : V0 - high + Math.max(0, lowAlpha - U0);
      if (bound > Math.min(lowerA, upper)) continue;
      const middle = Math.floor((low + high) / 2);
      const middleAlpha = alpha(
        middle,
        Math.max(U0, lowAlpha === none ? U0 : lowAlpha),
        highAlpha === none ? eligible0 : highAlpha,
      );
      record(middle, middleAlpha);
      stack.push([middle, middleAlpha, high, highAlpha], [low, lowAlpha, middle, middleAlpha]);
    }
  }
  let lower = Math.min(lowerA, upper);

  // 2. The nearest points of S_A usually pass (there P(d_S < −ε) is negligible): then the
  // bound is attained and the minimum is certified.
  for (const tie of ties) consider(tie.u, tie.v);
  if (upper === lower) return finish();

  // 3. Otherwise both sides bind (ε small against the sampling noise): the adversary
  // also lowers the variance by moving both rates toward 0 or 1. A passing point lies in
  // the band {A ≥ 1 − δ} ∩ {B ≥ 1 − δ}; its distance is a sharper certified bound. Then
  // search for a passing point toward the corners, descend ring by ring, and certify
  // rings from the bound up while the budget lasts.
  climb();
  if (upper > lower + climbSteps) ridgeSearch();
  if (upper > lower) certifyRectangles();
  return finish();

  function finish(): ExactMinimalFlips {
    const point = toOriginal(best.u, best.v);
    const exact = lower === upper;
    return result({
      flips: exact ? upper : null,
      lowerBound: lower,
      upperBound: upper,
      exact,
      maximumPassProbability: allZero,
      point,
    });
  }

  /**
   * From the nearest points of {A ≥ 1 − δ}, a few steps of steepest ascent of the pass
   * probability (one flip more per step): when the other side costs only a little
   * (P(d_S < −ε) of a percent, say), this finds a passing point one or two flips further.
   */
  function climb(): void {
    let point = ties.reduce(
      (a, b) => (passes(a.u, a.v).value >= passes(b.u, b.v).value ? a : b),
      ties[0] ?? { u: U0, v: V0 },
    );
    for (let step = 0; step < climbSteps && budgetLeft(); step++) {
      let next: Point | null = null;
      for (const move of [
        { u: point.u + 1, v: point.v },
        { u: point.u - 1, v: point.v },
        { u: point.u, v: point.v + 1 },
        { u: point.u, v: point.v - 1 },
      ]) {
        if (move.u < 0 || move.u > eligible0 || move.v < 0 || move.v > eligible1) continue;
        if (distance(move.u, move.v) !== distance(point.u, point.v) + 1) continue;
        if (next === null || passes(move.u, move.v).value > passes(next.u, next.v).value) next = move;
      }
      if (next === null) return;
      point = next;
      if (consider(point.u, point.v)) return;
    }
  }

  /**
   * From the nearest point of {A ≥ 1 − δ} toward each all-equal corner (both rates toward
   * 0 or 1: less sampling variance): bisection for the first passing point on that line,
   * then descent ring by ring (any passing point one flip closer, searched along the
   * passing arc of the current ring).
   */
  function ridgeSearch(): void {
    const anchor = ties.length > 0 ? ties[0] : { u: U0, v: V0 };
    for (const corner of [
      { u: 0, v: 0 },
      { u: eligible0, v: eligible1 },
    ]) {
      const steps = Math.max(Math.abs(corner.u - anchor.u), Math.abs(corner.v - anchor.v));
      if (steps === 0 || !budgetLeft()) continue;
      const pointAt = (step: number): Point => ({
        u: Math.round(anchor.u + ((corner.u - anchor.u) * step) / steps),
        v: Math.round(anchor.v + ((corner.v - anchor.v) * step) / steps),
      });
      let failing = 0;
      let passing = steps;
      while (passing - failing > 1 && budgetLeft()) {
        const middle = Math.floor((failing + passing) / 2);
        const point = pointAt(middle);
        if (passes(point.u, point.v).lower >= target) passing = middle;
        else failing = middle;
      }
      const found = pointAt(passing);
      if (passes(found.u, found.v).lower >= target) descend(found);
    }
  }

  /** Ring descent from a passing point: while some passing point of the ring one closer touches the passing arc, move there. */
  function descend(from: Point): void {
    let point = from;
    consider(point.u, point.v);
    while (budgetLeft() && distance(point.u, point.v) > lower) {
      const arc = passingArc(point);
      let next: Point | null = null;
      for (const on of arc) {
        for (const move of [
          { u: on.u + Math.sign(U0 - on.u), v: on.v },
          { u: on.u, v: on.v + Math.sign(V0 - on.v) },
        ]) {
          if (distance(move.u, move.v) !== distance(on.u, on.v) - 1) continue;
          if (
            passes(move.u, move.v).lower >= target &&
            (next === null || passes(move.u, move.v).value > passes(next.u, next.v).value)
          ) {
            next = move;
          }
        }
        if (!budgetLeft()) break;
      }
      if (next === null) return;
      point = next;
      consider(point.u, point.v);
    }
  }

  /** The passing points of point's ring reached from it by unit slides along the ring. */
  function passingArc(point: Point): Point[] {
    const arc: Point[] = [point];
    const k = distance(point.u, point.v);
    for (const direction of [1, -1]) {
      let at = point;
      for (;;) {
        // Slide along the ring: change v by one and move u to stay at distance k.
        const v = at.v + direction;
        const r = k - Math.abs(v - V0);
        if (r < 0 || v < 0 || v > eligible1 || !budgetLeft()) break;
        const u = at.u >= U0 ? U0 + r : U0 - r;
        if (u < 0 || u > eligible0 || passes(u, v).lower < target) break;
        at = { u, v };
        arc.push(at);
      }
    }
    return arc;
  }

  /**
   * Best-first branch and bound over rectangles [u1, u2] × [v1, v2] of the ball of radius
   * upper − 1, in order of their ℓ1 distance to the start. On a rectangle A ≤ A(u2, v1),
   * B ≤ B(u1, v2) (monotone), and π = A + B − P(both groups in S), so
   * π ≤ A(u2, v1) + B(u1, v2) − P(both in S): a rectangle whose bound is below 1 − δ holds
   * no passing point. A single point is computed. The first passing point popped is the
   * minimum (every nearer rectangle was resolved first); when the budget ends first, the
   * nearest open rectangle's distance is a certified lower bound. A point whose enclosure
   * straddles 1 − δ caps what can be certified at its distance.
   */
  function certifyRectangles(): void {
    const both = allZero.lower;
    const radius = upper - 1;
    const heap = new RectangleHeap();
    const near = (r: Rectangle) =>
      (r.u1 > U0 ? r.u1 - U0 : U0 > r.u2 ? U0 - r.u2 : 0) + (r.v1 > V0 ? r.v1 - V0 : V0 > r.v2 ? V0 - r.v2 : 0);
    const far = (r: Rectangle) =>
      Math.max(Math.abs(r.u1 - U0), Math.abs(r.u2 - U0)) + Math.max(Math.abs(r.v1 - V0), Math.abs(r.v2 - V0));
    const push = (r: Rectangle) => {
      r.distance = near(r);
      if (r.distance > radius || far(r) < lower) return;
      heap.push(r);
    };
    push({
      u1: Math.max(0, U0 - radius),
      u2: Math.min(eligible0, U0 + radius),
      v1: Math.max(0, V0 - radius),
      v2: Math.min(eligible1, V0 + radius),
      distance: 0,
    });
    // The nearest point whose enclosure straddles 1 − δ: nothing at or beyond it can be certified.
    let straddling = Number.POSITIVE_INFINITY;
    while (heap.size > 0) {
      const top = heap.peek();
      if (top.distance >= upper) break;
      if (!budgetLeft()) {
        lower = Math.max(lower, Math.min(top.distance, straddling, upper));
        return;
      }
      heap.pop();
      if (top.u1 === top.u2 && top.v1 === top.v2) {
        const pass = passes(top.u1, top.v1);
        if (pass.lower >= target) {
          consider(top.u1, top.v1);
          lower = Math.max(lower, Math.min(top.distance, straddling));
          return;
        }
        if (pass.upper >= target) straddling = Math.min(straddling, top.distance);
        continue;
      }
      const rising = binding(top.u2, top.v1).upper;
      const falling = other(top.u1, top.v2).upper;
      if (rising < target || falling < target || rising + falling - both < target) continue;
      if (top.u2 - top.u1 >= top.v2 - top.v1) {
        const middle = Math.floor((top.u1 + top.u2) / 2);
        push({ ...top, u2: middle });
        push({ ...top, u1: middle + 1 });
      } else {
        const middle = Math.floor((top.v1 + top.v2) / 2);
        push({ ...top, v2: middle });
        push({ ...top, v1: middle + 1 });
      }
    }
    lower = Math.max(lower, Math.min(straddling, upper));
  }
}

interface Rectangle {
  u1: number;
  u2: number;
  v1: number;
  v2: number;
  /** ℓ1 distance from the start to the rectangle's nearest point. */
  distance: number;
}

/** A binary min-heap of rectangles by distance. */
class RectangleHeap {
  private readonly items: Rectangle[] = [];
  get size(): number {
    return this.items.length;
  }
  peek(): Rectangle {
    return this.items[0];
  }
  push(item: Rectangle): void {
    const items = this.items;
    items.push(item);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (items[parent].distance <= item.distance) break;
      items[i] = items[parent];
      i = parent;
    }
    items[i] = item;
  }
  pop(): Rectangle {
    const items = this.items;
    const top = items[0];
    const last = items.pop() as Rectangle;
    if (items.length > 0) {
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        if (left >= items.length) break;
        const right = left + 1;
        const child = right < items.length && items[right].distance < items[left].distance ? right : left;
        if (items[child].distance >= last.distance) break;
        items[i] = items[child];
        i = child;
      }
      items[i] = last;
    }
    return top;
  }
}

/** The cheaper of the two all-equal corners, in oriented coordinates. */
function toOrientedCorner(u0: number, v0: number, eligible0: number, eligible1: number): Point {
  return u0 + v0 <= eligible0 - u0 + eligible1 - v0 ? { u: 0, v: 0 } : { u: eligible0, v: eligible1 };
}

/**
 * exactMinimalFlips(setting, options) is the fewest output flips on C's metric rows with
 * which a provider passes paper B's oblivious audit (S ⊂ C drawn as `design` says,
 * unseen by the provider; pass iff both groups are in S and |d_S| ≤ ε, compared exactly
 * on counts) with probability at least 1 − δ, against the strongest adversary: any
 * (P₀', P₁') with |P₀' − P₀| + |P₁' − P₁| flips, in either group and either direction,
 * chosen to maximise the pass probability. Proposition 1 and Theorems 1-4 are
 * sufficient conditions; this is the exact cost they bound.
 *
 * Method. The pass probability π(P₀', P₁') is computed exactly (createPassProbabilityEvaluator:
 * hypergeometric sums with provable tail bounds, enclosure ±(dropped mass + 1e-10); a
 * point counts as passing only when its lower end reaches 1 − δ, as failing only when
 * its upper end falls short). π ≤ A = P(d_S ≤ ε) and π ≤ B = P(d_S ≥ −ε), and A, B are
 * monotone in each coordinate (hypergeometric counts are stochastically increasing in
 * the positives). So the ℓ1 distance to {A ≥ 1 − δ} is a certified lower bound; it is
 * found by branch and bound over P₁' with bisection over P₀'. When one of its nearest
 * points passes, that is the minimum (the usual case: B ≈ 1 there). Otherwise a
 * search along the line toward the all-0 and all-1 corners (both rates toward an
 * extreme: less sampling variance) gives a passing point (upper bound), and rings of
 * growing ℓ1 radius inside {A ≥ 1 − δ} ∩ {B ≥ 1 − δ} are checked point by point (lower
 * bound) until they meet or `maxEvaluations` is spent: then the result is the certified
 * bracket [lowerBound, upperBound] with flips = null. |d_C| ≤ ε gives 0 flips
 * (withinTolerance). When even all outputs equal passes with probability below 1 − δ
 * (groups too often missing from S), reachable is false.
 *
 * Cost: the bound of step 1 takes O(log² N) evaluations in practice, each
 * O(Σ x₀-window sizes) (≈ 2·10⁵ steps at N = 13,500, n = 6,750). Throws InputError
 * on a bad setting (validateExactMinimalFlipsSetting).
 */
export function exactMinimalFlips(
  setting: ExactMinimalFlipsSetting,
  options: ExactMinimalFlipsOptions = {},
): ExactMinimalFlips {
  validateExactMinimalFlipsSetting(setting, options);
  const evaluator = createPassProbabilityEvaluator(setting, options.tailBound);
  return exactMinimalFlipsWithEvaluator(
    evaluator,
    [setting.population.eligiblePositives[0], setting.population.eligiblePositives[1]],
    setting.passProbability,
    options.maxEvaluations,
  );
}

/**
 * validateExactMinimalFlipsSetting(setting, options, where) throws an InputError naming
 * the setting unless: C has both groups with metric rows (validateCandidatePopulation),
 * 2 ≤ n ≤ N, the design is uniform, proportional or balanced, 0 ≤ ε finite, 1 − δ in
 * (0, 1), the tail bound in (0, 1e-6] and maxEvaluations a positive integer. O(1).
 */
export function validateExactMinimalFlipsSetting(
  setting: ExactMinimalFlipsSetting,
  options: ExactMinimalFlipsOptions = {},
  where = 'exactMinimalFlips',
): void {
  validateCandidatePopulation(setting.population, `${where}: population`);
  const total = setting.population.groupSizes[0] + setting.population.groupSizes[1];
  if (!Number.isInteger(setting.auditSetSize) || setting.auditSetSize < 2 || setting.auditSetSize > total) {
    throw inputError({
      where: `${where}: auditSetSize`,
      expected: `an integer from 2 to the candidate set size ${total}`,
      found: setting.auditSetSize,
    });
  }
  if (!['uniform', 'proportional', 'balanced'].includes(setting.design)) {
    throw inputError({
      where: `${where}: design`,
      expected: 'uniform, proportional or balanced',
      found: setting.design,
    });
  }
  if (!(Number.isFinite(setting.tolerance) && setting.tolerance >= 0)) {
    throw inputError({ where: `${where}: tolerance`, expected: 'a finite tolerance ≥ 0', found: setting.tolerance });
  }
  if (!(setting.passProbability > 0 && setting.passProbability < 1)) {
    throw inputError({
      where: `${where}: passProbability`,
      expected: 'a probability strictly between 0 and 1',
      found: setting.passProbability,
    });
  }
  if (options.tailBound !== undefined && !(options.tailBound > 0 && options.tailBound <= 1e-6)) {
    throw inputError({ where: `${where}: tailBound`, expected: 'a tail bound in (0, 1e-6]', found: options.tailBound });
  }
  if (
    options.maxEvaluations !== undefined &&
    !(Number.isInteger(options.maxEvaluations) && options.maxEvaluations >= 1)
  ) {
    throw inputError({
      where: `${where}: maxEvaluations`,
      expected: 'a positive integer',
      found: options.maxEvaluations,
    });
  }
}

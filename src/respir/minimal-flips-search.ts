import type {
  AuditOutcomeProbabilities,
  BoundedProbability,
  PassProbabilityEvaluator,
} from './exact-pass-probability.js';
import { type Rectangle, RectangleHeap } from './rectangle-heap.js';

/** A point (P₀', P₁') of positives after manipulation, in the search's oriented coordinates unless said otherwise. */
export interface Point {
  u: number;
  v: number;
}

/** How far the ascent from the nearest points of {A ≥ 1 − δ} goes before the corner search takes over. */
export const CLIMB_STEPS = 24;

/** The cheaper of the two all-equal corners, in oriented coordinates. */
function toOrientedCorner(u0: number, v0: number, eligible0: number, eligible1: number): Point {
  return u0 + v0 <= eligible0 - u0 + eligible1 - v0 ? { u: 0, v: 0 } : { u: eligible0, v: eligible1 };
}

/**
 * The state of one search for the exact minimal flips (exactMinimalFlipsWithEvaluator
 * runs its steps in order; see exactMinimalFlips for the method): the pass probabilities
 * computed so far, the start in oriented coordinates (the start's gap positive, so the
 * binding side P(d_S ≤ ε) rises with u and falls with v; when group 0 has the higher
 * rate, u ↦ E₀ − u and v ↦ E₁ − v maps one case onto the other, the audit only seeing
 * |d_S|), the best passing point found (upper bound) and the certified lower bound.
 */
export class MinimalFlipsSearch {
  readonly eligible0: number;
  readonly eligible1: number;
  /** Whether oriented coordinates complement the original ones. */
  readonly flip: boolean;
  /** The start, oriented. */
  readonly U0: number;
  readonly V0: number;
  /** P(both groups have a metric row in S): the pass probability of all outputs equal. */
  readonly allZero: BoundedProbability;
  /** The best passing point found and its distance: the upper bound. */
  best: Point;
  upper: number;
  /** The certified lower bound. */
  lower = 0;
  /** The nearest points of {A ≥ 1 − δ} (step 1) and their distance. */
  ties: Point[] = [];
  lowerA = Number.POSITIVE_INFINITY;
  private readonly computed: Map<number, AuditOutcomeProbabilities>;
  private readonly startEvaluations: number;

  constructor(
    readonly evaluator: PassProbabilityEvaluator,
    readonly start: readonly [number, number],
    readonly target: number,
    readonly maxEvaluations: number,
    computed: Map<number, AuditOutcomeProbabilities>,
    startEvaluations: number,
  ) {
    [this.eligible0, this.eligible1] = evaluator.setting.population.eligibleSizes;
    this.computed = computed;
    this.startEvaluations = startEvaluations;
    const [start0, start1] = start;
    this.flip = start1 * this.eligible0 - start0 * this.eligible1 < 0;
    this.U0 = this.flip ? this.eligible0 - start0 : start0;
    this.V0 = this.flip ? this.eligible1 - start1 : start1;
    this.allZero = outcomeAt(evaluator, computed, 0, 0).pass;
    this.best = toOrientedCorner(this.U0, this.V0, this.eligible0, this.eligible1);
    this.upper = this.distance(this.best.u, this.best.v);
  }

  /** The outcome probabilities at an original point, computed once. */
  at(u: number, v: number): AuditOutcomeProbabilities {
    return outcomeAt(this.evaluator, this.computed, u, v);
  }

  toOriginal(u: number, v: number): Point {
    return this.flip ? { u: this.eligible0 - u, v: this.eligible1 - v } : { u, v };
  }

  oriented(u: number, v: number): AuditOutcomeProbabilities {
    const p = this.toOriginal(u, v);
    return this.at(p.u, p.v);
  }

  /** The binding side of the pass event, oriented: P(d_S ≤ ε), rising with u and falling with v. */
  binding(u: number, v: number): BoundedProbability {
    const outcome = this.oriented(u, v);
    return this.flip ? outcome.gapAtLeastMinusTolerance : outcome.gapAtMostTolerance;
  }

  /** The other side, oriented: P(d_S ≥ −ε). */
  other(u: number, v: number): BoundedProbability {
    const outcome = this.oriented(u, v);
    return this.flip ? outcome.gapAtMostTolerance : outcome.gapAtLeastMinusTolerance;
  }

  passes(u: number, v: number): BoundedProbability {
    return this.oriented(u, v).pass;
  }

  distance(u: number, v: number): number {
    return Math.abs(u - this.U0) + Math.abs(v - this.V0);
  }

  budgetLeft(): boolean {
    return this.evaluator.evaluations - this.startEvaluations < this.maxEvaluations;
  }

  /** Takes (u, v) as the best point when it is nearer (or as near and likelier) and certainly passes. */
  consider(u: number, v: number): boolean {
    const cost = this.distance(u, v);
    if (
      cost < this.upper ||
      (cost === this.upper && this.passes(u, v).value > this.passes(this.best.u, this.best.v).value)
    ) {
      if (this.passes(u, v).lower >= this.target) {
        this.best = { u, v };
        this.upper = cost;
        return true;
      }
    }
    return false;
  }
}

/** The outcome probabilities at an original point (u, v), computed by the evaluator once and kept in `computed`. */
export function outcomeAt(
  evaluator: PassProbabilityEvaluator,
  computed: Map<number, AuditOutcomeProbabilities>,
  u: number,
  v: number,
): AuditOutcomeProbabilities {
  const key = u * (evaluator.setting.population.eligibleSizes[1] + 1) + v;
  let outcome = computed.get(key);
  if (outcome === undefined) {
    outcome = evaluator.outcomes(u, v);
    computed.set(key, outcome);
  }
  return outcome;
}

/** α(v) = min{u in [low, high] : binding(u, v) may reach 1 − δ}, by bisection; `none` (E₀ + 1) when there is none. */
function firstBindingPass(search: MinimalFlipsSearch, v: number, low: number, high: number): number {
  const none = search.eligible0 + 1;
  if (low > high) return none;
  if (search.binding(low, v).upper >= search.target) return low;
  if (search.binding(high, v).upper < search.target) return none;
  let failing = low;
  let passing = high;
  while (passing - failing > 1) {
    const middle = Math.floor((failing + passing) / 2);
    if (search.binding(middle, v).upper >= search.target) passing = middle;
    else failing = middle;
  }
  return passing;
}

/** Records row v of step 1: its cost (V0 − v) + max(0, α(v) − U0), and its nearest point when it ties the best. */
function recordRow(search: MinimalFlipsSearch, v: number, a: number): void {
  const cost = a === search.eligible0 + 1 ? Number.POSITIVE_INFINITY : search.V0 - v + Math.max(0, a - search.U0);
  if (cost < search.lowerA) {
    search.lowerA = cost;
    search.ties = [];
  }
  if (cost === search.lowerA && cost !== Number.POSITIVE_INFINITY) search.ties.push({ u: Math.max(search.U0, a), v });
}

/**
 * Step 1, the lower bound from the binding side alone. It is monotone (an extra positive
 * in group 0 can only raise P(d_S ≤ ε), one in group 1 only lower it: hypergeometric
 * counts are stochastically increasing in the positives), so S_A = {binding ≥ 1 − δ} is
 * closed under u↑ and v↓ and its ℓ1-nearest points lie at u ≥ U0, v ≤ V0, at
 * (max(U0, α(v)), v) with α(v) = min{u : binding(u, v) ≥ 1 − δ}, nondecreasing in v. Every
 * passing point lies in S_A, so min over v of (V0 − v) + max(0, α(v) − U0) bounds the
 * minimum from below. Branch and bound over v finds it with α computed by bisection at
 * O(log) points; sets search.lowerA, search.ties and search.lower.
 */
export function boundFromBindingSide(search: MinimalFlipsSearch): void {
  const { U0, V0, eligible0 } = search;
  const none = eligible0 + 1;
  const topAlpha = firstBindingPass(search, V0, U0, eligible0);
  recordRow(search, V0, topAlpha);
  const bottom = Math.max(0, V0 - Math.min(search.upper, search.lowerA));
  if (bottom < V0) {
    const bottomAlpha = firstBindingPass(search, bottom, U0, topAlpha === none ? eligible0 : topAlpha);
    recordRow(search, bottom, bottomAlpha);
    const stack: Array<[number, number, number, number]> = [[bottom, bottomAlpha, V0, topAlpha]];
    while (stack.length > 0) {
      const [low, lowAlpha, high, highAlpha] = stack.pop() as [number, number, number, number];
      if (high - low <= 1) continue;
      const bound = lowAlpha === none ? Number.POSITIVE_INFINITY : V0 - high + Math.max(0, lowAlpha - U0);
      if (bound > Math.min(search.lowerA, search.upper)) continue;
      const middle = Math.floor((low + high) / 2);
      const middleAlpha = firstBindingPass(
        search,
        middle,
        Math.max(U0, lowAlpha === none ? U0 : lowAlpha),
        highAlpha === none ? eligible0 : highAlpha,
      );
      recordRow(search, middle, middleAlpha);
      stack.push([middle, middleAlpha, high, highAlpha], [low, lowAlpha, middle, middleAlpha]);
    }
  }
  search.lower = Math.min(search.lowerA, search.upper);
}

/** The neighbours of a point one flip farther from the start (in ±u, ±v order), inside the population. */
function stepsAway(search: MinimalFlipsSearch, point: Point): Point[] {
  return [
    { u: point.u + 1, v: point.v },
    { u: point.u - 1, v: point.v },
    { u: point.u, v: point.v + 1 },
    { u: point.u, v: point.v - 1 },
  ].filter(
    (move) =>
      move.u >= 0 &&
      move.u <= search.eligible0 &&
      move.v >= 0 &&
      move.v <= search.eligible1 &&
      search.distance(move.u, move.v) === search.distance(point.u, point.v) + 1,
  );
}

/**
 * From the nearest points of {A ≥ 1 − δ}, a few steps of steepest ascent of the pass
 * probability (one flip more per step): when the other side costs only a little
 * (P(d_S < −ε) of a percent, say), this finds a passing point one or two flips further.
 */
export function climb(search: MinimalFlipsSearch): void {
  let point = search.ties.reduce(
    (a, b) => (search.passes(a.u, a.v).value >= search.passes(b.u, b.v).value ? a : b),
    search.ties[0] ?? { u: search.U0, v: search.V0 },
  );
  for (let step = 0; step < CLIMB_STEPS && search.budgetLeft(); step++) {
    let next: Point | null = null;
    for (const move of stepsAway(search, point))
      if (next === null || search.passes(move.u, move.v).value > search.passes(next.u, next.v).value) next = move;
    if (next === null) return;
    point = next;
    if (search.consider(point.u, point.v)) return;
  }
}

/**
 * From the nearest point of {A ≥ 1 − δ} toward each all-equal corner (both rates toward
 * 0 or 1: less sampling variance): bisection for the first passing point on that line,
 * then descent ring by ring (any passing point one flip closer, searched along the
 * passing arc of the current ring).
 */
export function ridgeSearch(search: MinimalFlipsSearch): void {
  const anchor = search.ties.length > 0 ? search.ties[0] : { u: search.U0, v: search.V0 };
  for (const corner of [
    { u: 0, v: 0 },
    { u: search.eligible0, v: search.eligible1 },
  ]) {
    const steps = Math.max(Math.abs(corner.u - anchor.u), Math.abs(corner.v - anchor.v));
    if (steps === 0 || !search.budgetLeft()) continue;
    const pointAt = (step: number): Point => ({
      u: Math.round(anchor.u + ((corner.u - anchor.u) * step) / steps),
      v: Math.round(anchor.v + ((corner.v - anchor.v) * step) / steps),
    });
    let failing = 0;
    let passing = steps;
    while (passing - failing > 1 && search.budgetLeft()) {
      const middle = Math.floor((failing + passing) / 2);
      const point = pointAt(middle);
      if (search.passes(point.u, point.v).lower >= search.target) passing = middle;
      else failing = middle;
    }
    const found = pointAt(passing);
    if (search.passes(found.u, found.v).lower >= search.target) descend(search, found);
  }
}

/** The passing point one flip closer to the start from a point of the arc, the likeliest; null when there is none. */
function closerFromArc(search: MinimalFlipsSearch, arc: readonly Point[]): Point | null {
  let next: Point | null = null;
  for (const on of arc) {
    for (const move of [
      { u: on.u + Math.sign(search.U0 - on.u), v: on.v },
      { u: on.u, v: on.v + Math.sign(search.V0 - on.v) },
    ]) {
      if (search.distance(move.u, move.v) !== search.distance(on.u, on.v) - 1) continue;
      if (
        search.passes(move.u, move.v).lower >= search.target &&
        (next === null || search.passes(move.u, move.v).value > search.passes(next.u, next.v).value)
      ) {
        next = move;
      }
    }
    if (!search.budgetLeft()) break;
  }
  return next;
}

/** Ring descent from a passing point: while some passing point of the ring one closer touches the passing arc, move
 * there. */
function descend(search: MinimalFlipsSearch, from: Point): void {
  let point = from;
  search.consider(point.u, point.v);
  while (search.budgetLeft() && search.distance(point.u, point.v) > search.lower) {
    const next = closerFromArc(search, passingArc(search, point));
    if (next === null) return;
    point = next;
    search.consider(point.u, point.v);
  }
}

/** The passing points of point's ring reached from it by unit slides along the ring. */
function passingArc(search: MinimalFlipsSearch, point: Point): Point[] {
  const { U0, V0 } = search;
  const arc: Point[] = [point];
  const k = search.distance(point.u, point.v);
  for (const direction of [1, -1]) {
    let at = point;
    for (;;) {
      // Slide along the ring: change v by one and move u to stay at distance k.
      const v = at.v + direction;
      const r = k - Math.abs(v - V0);
      if (r < 0 || v < 0 || v > search.eligible1 || !search.budgetLeft()) break;
      const u = at.u >= U0 ? U0 + r : U0 - r;
      if (u < 0 || u > search.eligible0 || search.passes(u, v).lower < search.target) break;
      at = { u, v };
      arc.push(at);
    }
  }
  return arc;
}

/** ℓ1 distance from the start to a rectangle's nearest point. */
function nearestDistance(search: MinimalFlipsSearch, r: Rectangle): number {
  const { U0, V0 } = search;
  return (r.u1 > U0 ? r.u1 - U0 : U0 > r.u2 ? U0 - r.u2 : 0) + (r.v1 > V0 ? r.v1 - V0 : V0 > r.v2 ? V0 - r.v2 : 0);
}

/** ℓ1 distance from the start to a rectangle's farthest point. */
function farthestDistance(search: MinimalFlipsSearch, r: Rectangle): number {
  const { U0, V0 } = search;
  return Math.max(Math.abs(r.u1 - U0), Math.abs(r.u2 - U0)) + Math.max(Math.abs(r.v1 - V0), Math.abs(r.v2 - V0));
}

/** Splits a rectangle in two along its longer side. */
function halves(top: Rectangle): [Rectangle, Rectangle] {
  if (top.u2 - top.u1 >= top.v2 - top.v1) {
    const middle = Math.floor((top.u1 + top.u2) / 2);
    return [
      { ...top, u2: middle },
      { ...top, u1: middle + 1 },
    ];
  }
  const middle = Math.floor((top.v1 + top.v2) / 2);
  return [
    { ...top, v2: middle },
    { ...top, v1: middle + 1 },
  ];
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
export function certifyRectangles(search: MinimalFlipsSearch): void {
  const { U0, V0, target } = search;
  const both = search.allZero.lower;
  const radius = search.upper - 1;
  const heap = new RectangleHeap();
  const push = (r: Rectangle) => {
    r.distance = nearestDistance(search, r);
    if (r.distance > radius || farthestDistance(search, r) < search.lower) return;
    heap.push(r);
  };
  push({
    u1: Math.max(0, U0 - radius),
    u2: Math.min(search.eligible0, U0 + radius),
    v1: Math.max(0, V0 - radius),
    v2: Math.min(search.eligible1, V0 + radius),
    distance: 0,
  });
  // The nearest point whose enclosure straddles 1 − δ: nothing at or beyond it can be certified.
  let straddling = Number.POSITIVE_INFINITY;
  while (heap.size > 0) {
    const top = heap.peek();
    if (top.distance >= search.upper) break;
    if (!search.budgetLeft()) {
      search.lower = Math.max(search.lower, Math.min(top.distance, straddling, search.upper));
      return;
    }
    heap.pop();
    if (top.u1 === top.u2 && top.v1 === top.v2) {
      const pass = search.passes(top.u1, top.v1);
      if (pass.lower >= target) {
        search.consider(top.u1, top.v1);
        search.lower = Math.max(search.lower, Math.min(top.distance, straddling));
        return;
      }
      if (pass.upper >= target) straddling = Math.min(straddling, top.distance);
      continue;
    }
    const rising = search.binding(top.u2, top.v1).upper;
    const falling = search.other(top.u1, top.v2).upper;
    if (rising < target || falling < target || rising + falling - both < target) continue;
    for (const half of halves(top)) push(half);
  }
  search.lower = Math.max(search.lower, Math.min(straddling, search.upper));
}

import { ALEA_MULTIPLIER, ALEA_SCALE } from '../util/random.js';
import {
  FACE_DEFICIT,
  FACE_F1,
  FACE_F2,
  FACE_LENGTH,
  FACE_LOG_S1,
  FACE_LOG_S2,
  FACE_S1,
  FACE_S2,
  FACE_TOLERANCE,
  FACE_X,
  solveBernoulliFace,
  solveBernoulliFaceArgmax,
  writeBernoulliFaceDeficit,
} from './bernoulli-face-maximum.js';
import { type GlrStream, QUERY_NAN } from './glr-stream.js';

/** What the last update was (for settle()): no statistic yet, one face, or the accept side with its near face. */
const CASE_UNDEFINED = 0;
const CASE_PLUS = 1;
const CASE_MINUS = 2;
const CASE_ACCEPT_AHEAD = 3;
const CASE_ACCEPT_BEHIND = 4;

/**
 * The drift bound's anchor in a Float64Array (see addWithin): the statistic at the last
 * evaluation, 1 / (2 n_g) with n_g the anchor's counts, then for each observation code c =
 * 2 group + value (0: a failure of group a, 1: a success of a, 2 and 3 the same of b) what one
 * such observation adds to the block's six running sums: h(r) - h(q0) and h(q1) - h(r) (r the
 * anchor's empirical rates, q0 its maximiser under H0, q1 on the closure of H1; h the block's
 * log-likelihood), and dh/dq_a at r, dh/dq_b at r, dh/dq_a at q0 and dh/dq_b at q0.
 */
const DRIFT_ANCHOR = 0;
const DRIFT_HALF_INVERSE_A = 1;
const DRIFT_HALF_INVERSE_B = 2;
/** Code c's six steps start at DRIFT_STEPS + DRIFT_STRIDE c, in the order of the STEP_* offsets. */
const DRIFT_STEPS = 3;
const DRIFT_STRIDE = 6;
const STEP_RISE = 0;
const STEP_FALL = 1;
const STEP_FREE_A = 2;
const STEP_FREE_B = 3;
const STEP_NULL_A = 4;
const STEP_NULL_B = 5;
const DRIFT_LENGTH = DRIFT_STEPS + 4 * DRIFT_STRIDE;

/**
 * Slack added to every bound before it may skip work, far above the rounding of a deficit
 * (about 1e-16 n in each of its terms of order n): a constant plus this much per observation.
 */
const BOUND_MARGIN = 1e-7;
const BOUND_MARGIN_PER_OBSERVATION = 1e-12;

/** Whether 0 < q < 1 (the drift bound needs its logarithms and gradients finite). */
function inside(q: number): boolean {
  return q > 0 && q < 1;
}

/**
 * The Bernoulli GLR of paper A (eq. 22-23, appendix A) maintained incrementally: each
 * add() updates the counts of one group, solves the boundary maximum by Halley's method from
 * a start made of the counts alone (about one step), then evaluates the likelihood deficit of
 * that face point (four logs). On the accept side the far face is skipped when Pinsker's
 * inequality bounds its deficit above the near face's: it is at least 2 (nA nB / n)(tolerance + |gap|)^2.
 * `statistic` is bernoulliGlrKernel's at the current counts, to the bit: a function of the
 * counts, not of the order they came in (no face is warm-started from an earlier update).
 * O(1) per add, no allocation (the face problems live in typed arrays, so no double is
 * boxed crossing a call). addWithin() is add() for a caller that only needs to know when
 * a threshold may have been reached: it solves the faces and evaluates the deficits only
 * when a bound on the statistic's drift since the last evaluation cannot rule a crossing
 * out, so every statistic it computes, and settle()'s, is add()'s to the bit.
 * @example
 * const stream = new BernoulliGlrStream();
 * stream.add(0, 1);
 * stream.add(1, 0);
 */
export class BernoulliGlrStream implements GlrStream {
  // Fields that come to hold fractions start as NaN (set to 0 by the constructor's reset): a field
  // first given an integer is laid out again when its first fraction comes, which discards the
  // compiled code of every method that read it (each worker's first chunks ran interpreted).
  statistic = Number.NaN;
  /** How queryShuffled() stopped: 1 at or above upper, -1 at or below lower, 0 at its cap, or QUERY_NAN. */
  crossing = 0;
  private countA = 0;
  private positivesA = 0;
  private countB = 0;
  private positivesB = 0;
  private tolerance = 0.05;
  /** The six running sums of the observations since the drift bound's anchor (addWithin; STEP_* order). */
  private blockRise = Number.NaN;
  private blockFall = Number.NaN;
  private blockFreeA = Number.NaN;
  private blockFreeB = Number.NaN;
  private blockNullA = Number.NaN;
  private blockNullB = Number.NaN;
  /** The face theta_b = theta_a + tolerance (x = theta_a). */
  private readonly plus = new Float64Array(FACE_LENGTH);
  /** The face theta_a = theta_b + tolerance (x = theta_b). */
  private readonly minus = new Float64Array(FACE_LENGTH);

  /** The case of the last update (CASE_*), for settle(). */
  private lastCase = CASE_UNDEFINED;
  /** Whether the last accept-side update solved the far face too. */
  private farSolved = false;
  /** Whether `statistic` is that of the last update (add(), or addWithin() that evaluated). */
  private settled = true;
  /** The drift bound's anchor (DRIFT_*): the last evaluated statistic and its two maximisers. */
  private readonly drift = new Float64Array(DRIFT_LENGTH);
  /** Whether the anchor's maximisers are inside (0, 1)^2, so that the drift bound is finite. */
  private anchored = false;

  constructor() {
    this.reset(0.05);
  }

  get ready(): boolean {
    return this.countA > 0 && this.countB > 0;
  }

  /** The counts so far (observations and positives per group). */
  get counts(): { countA: number; positivesA: number; countB: number; positivesB: number } {
    return { countA: this.countA, positivesA: this.positivesA, countB: this.countB, positivesB: this.positivesB };
  }

  reset(tolerance: number): void {
    this.countA = 0;
    this.positivesA = 0;
    this.countB = 0;
    this.positivesB = 0;
    this.tolerance = tolerance;
    this.statistic = 0;
    this.plus[FACE_X] = -1;
    this.minus[FACE_X] = -1;
    this.plus[FACE_TOLERANCE] = tolerance;
    this.minus[FACE_TOLERANCE] = tolerance;
    this.lastCase = CASE_UNDEFINED;
    this.clearBlock();
    this.farSolved = false;
    this.settled = true;
    this.anchored = false;
  }

  add(group: number, value: number): void {
    if (group === 0) {
      this.countA++;
      this.positivesA += value;
    } else {
      this.countB++;
      this.positivesB += value;
    }
    if (this.countA === 0 || this.countB === 0) return;
    const sa = this.positivesA;
    const fa = this.countA - sa;
    const sb = this.positivesB;
    const fb = this.countB - sb;
    const tolerance = this.tolerance;
    const gap = sb / this.countB - sa / this.countA;
    // The faces are solved in place and their deficits read back from the arrays: a
    // helper method returning a double is not inlined here and would box it on every
    // update (about 7% of the update time, measured with `bench glr`).
    const plus = this.plus;
    const minus = this.minus;
    if (gap > tolerance) {
      plus[FACE_S1] = sa;
      plus[FACE_F1] = fa;
      plus[FACE_S2] = sb;
      plus[FACE_F2] = fb;
      plus[FACE_X] = -1;
      solveBernoulliFace(plus);
      this.statistic = Math.max(plus[FACE_DEFICIT], 0);
      return;
    }
    if (gap < -tolerance) {
      minus[FACE_S1] = sb;
      minus[FACE_F1] = fb;
      minus[FACE_S2] = sa;
      minus[FACE_F2] = fa;
      minus[FACE_X] = -1;
      solveBernoulliFace(minus);
      this.statistic = Math.max(minus[FACE_DEFICIT], 0);
      return;
    }
    // Accept side: minus the smaller face deficit; the near face first, the far one only
    // if Pinsker's bound does not already rule it out. The near face is theta_b =
    // theta_a + tolerance (group a first) when gap >= 0, else the swapped one.
    const weight = (this.countA * this.countB) / (this.countA + this.countB);
    const farShift = tolerance + Math.abs(gap);
    const farBound = 2 * weight * farShift * farShift;
    const ahead = gap >= 0;
    const near = ahead ? plus : minus;
    const far = ahead ? minus : plus;
    const s1 = ahead ? sa : sb;
    const f1 = ahead ? fa : fb;
    const s2 = ahead ? sb : sa;
    const f2 = ahead ? fb : fa;
    near[FACE_S1] = s1;
    near[FACE_F1] = f1;
    near[FACE_S2] = s2;
    near[FACE_F2] = f2;
    near[FACE_X] = -1;
    solveBernoulliFace(near);
    let best = near[FACE_DEFICIT];
    if (farBound < best) {
      far[FACE_S1] = s2;
      far[FACE_F1] = f2;
      far[FACE_S2] = s1;
      far[FACE_F2] = f1;
      far[FACE_X] = -1;
      solveBernoulliFace(far);
      best = Math.min(best, far[FACE_DEFICIT]);
    }
    this.statistic = Math.min(-best, 0);
  }
  /**
   * addWithin(group, value, upper, lower) folds in one observation as add() does and
   * returns whether it brought `statistic` up to date. It does so unless a bound proves the
   * statistic strictly between `lower` and `upper`; then `statistic` is left stale (read it
   * after settle()). The bound (exact, with a margin far above rounding): write
   * S = D0 - D1, D_C the log-likelihood of the free maximum minus that of the maximum over C
   * (H0, or the closure of H1), and h the log-likelihood of the observations since the last
   * evaluation (the anchor: counts n_g, empirical rates r, maximisers q0 over H0 and q1 over
   * the closure of H1). Each sup over C moves by at least h(q_C); over a convex C (the free
   * one, H0) by at most h(q_C) + E(q_C), E(q) = sum over g of (dh/dq_g)^2 / (2 n_g), since
   * the anchor's log-likelihood has curvature at least n_g in q_g and q_C is optimal on C.
   * So S rises to at most max(S, 0) + h(r) - h(q0) + E(r) and falls to at least
   * max(0, max(S, 0) + h(r) - h(q0) - E(q0)) - (max(-S, 0) + h(r) - h(q1) + E(r)).
   * O(1), no allocation, no logarithm when the bound rules a crossing out.
   */
  addWithin(group: number, value: number, upper: number, lower: number): boolean {
    if (group === 0) {
      this.countA++;
      this.positivesA += value;
    } else {
      this.countB++;
      this.positivesB += value;
    }
    // The steps of a success and of a failure of this group, weighted by the value (0/1: one of them).
    const drift = this.drift;
    const failure = DRIFT_STEPS + 2 * DRIFT_STRIDE * group;
    const success = failure + DRIFT_STRIDE;
    const rest = 1 - value;
    this.blockRise += value * drift[success + STEP_RISE] + rest * drift[failure + STEP_RISE];
    this.blockFall += value * drift[success + STEP_FALL] + rest * drift[failure + STEP_FALL];
    this.blockFreeA += value * drift[success + STEP_FREE_A] + rest * drift[failure + STEP_FREE_A];
    this.blockFreeB += value * drift[success + STEP_FREE_B] + rest * drift[failure + STEP_FREE_B];
    this.blockNullA += value * drift[success + STEP_NULL_A] + rest * drift[failure + STEP_NULL_A];
    this.blockNullB += value * drift[success + STEP_NULL_B] + rest * drift[failure + STEP_NULL_B];
    if (this.countA === 0 || this.countB === 0) return false;
    if (this.anchored && !this.mayReach(upper, lower)) {
      this.settled = false;
      return false;
    }
    this.solveFaces();
    this.evaluate();
    return true;
  }

  /**
   * queryShuffled(codes, swaps, cap, alea, upper, lower, minimum) is the replicate loop of
   * paper A's audit written out for this stream: for positions 0, 1, ... it takes the partial
   * Fisher-Yates step of `codes` (partialShuffleStep's arithmetic, the partner in `swaps`; each
   * entry a row's 2 group + decision, as PreparedAudit.codes) with the draw of the createRandom
   * generator whose state is `alea` (its Alea step on locals, the state written back), folds the
   * row in as addWithin() does (counts and the drift bound on locals, written back before an
   * evaluation and at the end), and stops after the first evaluated statistic at or beyond a
   * threshold once each group has `minimum` observations, or at `cap`. Returns the queries made;
   * `crossing` is then 1 (statistic >= upper), -1 (<= lower), 0 (no stop) or QUERY_NAN (a NaN
   * statistic). The same draws, rows and statistics as addWithin() called from the loop. O(queries).
   */
  queryShuffled(
    codes: Uint8Array,
    swaps: Int32Array,
    cap: number,
    alea: Float64Array,
    upper: number,
    lower: number,
    minimum: number,
  ): number {
    const length = codes.length;
    // Alea's constants on locals: an imported binding is re-read (and checked) at every use in a loop.
    const multiplier = ALEA_MULTIPLIER;
    const scale = ALEA_SCALE;
    let s0 = alea[0];
    let s1 = alea[1];
    let s2 = alea[2];
    let carry = alea[3];
    let countA = this.countA;
    let positivesA = this.positivesA;
    let countB = this.countB;
    let positivesB = this.positivesB;
    let rise = this.blockRise;
    let fall = this.blockFall;
    let freeA = this.blockFreeA;
    let freeB = this.blockFreeB;
    let nullA = this.blockNullA;
    let nullB = this.blockNullB;
    const drift = this.drift;
    let anchored = this.anchored;
    let acceptSide = this.lastCase >= CASE_ACCEPT_AHEAD;
    let settled = this.settled;
    let position = 0;
    let crossing = 0;
    while (position < cap) {
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
      position++;
      // Without a branch on the group: adding 0 leaves a count as it was.
      const b = code >> 1;
      const x = code & 1;
      const a = 1 - b;
      countA += a;
      positivesA += a & x;
      countB += b;
      positivesB += b & x;
      // Only the sums the anchor's side reads (the others' steps are 0 there, or unused).
      const step = DRIFT_STEPS + DRIFT_STRIDE * code;
      freeA += drift[step + STEP_FREE_A];
      freeB += drift[step + STEP_FREE_B];
      if (acceptSide) fall += drift[step + STEP_FALL];
      else {
        rise += drift[step + STEP_RISE];
        nullA += drift[step + STEP_NULL_A];
        nullB += drift[step + STEP_NULL_B];
      }
      if (countA === 0 || countB === 0) continue;
      const observations = countA + countB;
      if (
        anchored &&
        !(acceptSide
          ? acceptSideMayReach(drift, fall, freeA, freeB, observations, upper, lower)
          : rejectSideMayReach(drift, rise, freeA, freeB, nullA, nullB, observations, upper, lower))
      ) {
        settled = false;
        continue;
      }
      this.countA = countA;
      this.positivesA = positivesA;
      this.countB = countB;
      this.positivesB = positivesB;
      this.solveFaces();
      this.evaluate();
      anchored = this.anchored;
      acceptSide = this.lastCase >= CASE_ACCEPT_AHEAD;
      settled = true;
      rise = 0;
      fall = 0;
      freeA = 0;
      freeB = 0;
      nullA = 0;
      nullB = 0;
      const statistic = this.statistic;
      if (Number.isNaN(statistic)) {
        crossing = QUERY_NAN;
        break;
      }
      if (statistic >= upper || statistic <= lower) {
        if (countA >= minimum && countB >= minimum) {
          crossing = statistic >= upper ? 1 : -1;
          break;
        }
      }
    }
    alea[0] = s0;
    alea[1] = s1;
    alea[2] = s2;
    alea[3] = carry;
    this.countA = countA;
    this.positivesA = positivesA;
    this.countB = countB;
    this.positivesB = positivesB;
    this.blockRise = rise;
    this.blockFall = fall;
    this.blockFreeA = freeA;
    this.blockFreeB = freeB;
    this.blockNullA = nullA;
    this.blockNullB = nullB;
    this.settled = settled;
    this.crossing = crossing;
    return position;
  }

  /** settle() brings `statistic` up to date after addWithin() left it stale (add()'s value, to the bit). O(1). */
  settle(): void {
    if (this.settled) return;
    this.solveFaces();
    this.evaluate();
  }

  /** add()'s face maxima for the current counts (each from the counts' own start), without the deficits. */
  private solveFaces(): void {
    const sa = this.positivesA;
    const fa = this.countA - sa;
    const sb = this.positivesB;
    const fb = this.countB - sb;
    const tolerance = this.tolerance;
    const rateA = sa / this.countA;
    const rateB = sb / this.countB;
    const gap = rateB - rateA;
    const plus = this.plus;
    const minus = this.minus;
    if (gap > tolerance) {
      plus[FACE_S1] = sa;
      plus[FACE_F1] = fa;
      plus[FACE_S2] = sb;
      plus[FACE_F2] = fb;
      plus[FACE_X] = -1;
      solveBernoulliFaceArgmax(plus);
      this.lastCase = CASE_PLUS;
      return;
    }
    if (gap < -tolerance) {
      minus[FACE_S1] = sb;
      minus[FACE_F1] = fb;
      minus[FACE_S2] = sa;
      minus[FACE_F2] = fa;
      minus[FACE_X] = -1;
      solveBernoulliFaceArgmax(minus);
      this.lastCase = CASE_MINUS;
      return;
    }
    const farShift = tolerance + Math.abs(gap);
    const ahead = gap >= 0;
    const near = ahead ? plus : minus;
    const far = ahead ? minus : plus;
    const s1 = ahead ? sa : sb;
    const f1 = ahead ? fa : fb;
    const s2 = ahead ? sb : sa;
    const f2 = ahead ? fb : fa;
    near[FACE_S1] = s1;
    near[FACE_F1] = f1;
    near[FACE_S2] = s2;
    near[FACE_F2] = f2;
    near[FACE_X] = -1;
    solveBernoulliFaceArgmax(near);
    this.lastCase = ahead ? CASE_ACCEPT_AHEAD : CASE_ACCEPT_BEHIND;
    const farNeeded = ahead ? farFaceNeeded(near, rateA, rateB, farShift) : farFaceNeeded(near, rateB, rateA, farShift);
    this.farSolved = farNeeded;
    if (farNeeded) {
      far[FACE_S1] = s2;
      far[FACE_F1] = f2;
      far[FACE_S2] = s1;
      far[FACE_F2] = f1;
      far[FACE_X] = -1;
      solveBernoulliFaceArgmax(far);
    }
  }

  /** Whether the drift bound (see addWithin) leaves a threshold within reach of the statistic. */
  private mayReach(upper: number, lower: number): boolean {
    const observations = this.countA + this.countB;
    return this.lastCase >= CASE_ACCEPT_AHEAD
      ? acceptSideMayReach(this.drift, this.blockFall, this.blockFreeA, this.blockFreeB, observations, upper, lower)
      : rejectSideMayReach(
          this.drift,
          this.blockRise,
          this.blockFreeA,
          this.blockFreeB,
          this.blockNullA,
          this.blockNullB,
          observations,
          upper,
          lower,
        );
  }

  /** Empties the block of observations since the anchor. */
  private clearBlock(): void {
    this.blockRise = 0;
    this.blockFall = 0;
    this.blockFreeA = 0;
    this.blockFreeB = 0;
    this.blockNullA = 0;
    this.blockNullB = 0;
  }

  /** The statistic of the last update from its solved faces (add()'s expressions), made the new anchor. */
  private evaluate(): void {
    const plus = this.plus;
    const minus = this.minus;
    const tolerance = this.tolerance;
    const rateA = this.positivesA / this.countA;
    const rateB = this.positivesB / this.countB;
    let nullA = rateA;
    let nullB = rateB;
    let alternativeA = rateA;
    let alternativeB = rateB;
    // The face point that is the other maximiser (q0 on the reject side, q1 on the accept side), and
    // the sign that makes its deficit logarithms log r - log q0 (+1) or log q1 - log r (-1).
    let point = plus;
    let sign = 1;
    const kind = this.lastCase;
    if (kind === CASE_PLUS) {
      writeBernoulliFaceDeficit(plus);
      this.statistic = Math.max(plus[FACE_DEFICIT], 0);
      nullA = plus[FACE_X];
      nullB = plus[FACE_X] + tolerance;
    } else if (kind === CASE_MINUS) {
      writeBernoulliFaceDeficit(minus);
      this.statistic = Math.max(minus[FACE_DEFICIT], 0);
      nullB = minus[FACE_X];
      nullA = minus[FACE_X] + tolerance;
      point = minus;
    } else {
      const ahead = kind === CASE_ACCEPT_AHEAD;
      const near = ahead ? plus : minus;
      const far = ahead ? minus : plus;
      writeBernoulliFaceDeficit(near);
      let best = near[FACE_DEFICIT];
      point = near;
      if (this.farSolved) {
        writeBernoulliFaceDeficit(far);
        if (far[FACE_DEFICIT] < best) point = far;
        best = Math.min(best, far[FACE_DEFICIT]);
      }
      this.statistic = Math.min(-best, 0);
      sign = -1;
      // plus: x is group a's rate; minus: x is group b's.
      alternativeA = point === plus ? point[FACE_X] : point[FACE_X] + tolerance;
      alternativeB = point === plus ? point[FACE_X] + tolerance : point[FACE_X];
    }
    this.anchored = inside(rateA) && inside(rateB) && inside(nullA) && inside(nullB);
    this.anchored &&= inside(alternativeA) && inside(alternativeB);
    if (this.anchored) {
      const drift = this.drift;
      drift[DRIFT_ANCHOR] = this.statistic;
      // The face's own logarithms, log(r / q) per group and outcome (every count is positive here, as every
      // rate is inside (0, 1)); the free maximiser's differences are 0. On plus group a is the face's first.
      const a = point === plus ? FACE_LOG_S1 : FACE_LOG_S2;
      const b = point === plus ? FACE_LOG_S2 : FACE_LOG_S1;
      const logSA = sign * point[a];
      const logFA = sign * point[a + 1];
      const logSB = sign * point[b];
      const logFB = sign * point[b + 1];
      const reject = sign > 0;
      const riseSA = reject ? logSA : 0;
      const riseFA = reject ? logFA : 0;
      const riseSB = reject ? logSB : 0;
      const riseFB = reject ? logFB : 0;
      const fallSA = reject ? 0 : logSA;
      const fallFA = reject ? 0 : logFA;
      const fallSB = reject ? 0 : logSB;
      const fallFB = reject ? 0 : logFB;
      // Code 0 (a failure of a): -1/(1 - q_a); code 1: 1/q_a; codes 2 and 3 the same for group b.
      setSteps(drift, 0, riseFA, fallFA, -1 / (1 - rateA), 0, -1 / (1 - nullA), 0);
      setSteps(drift, 1, riseSA, fallSA, 1 / rateA, 0, 1 / nullA, 0);
      setSteps(drift, 2, riseFB, fallFB, 0, -1 / (1 - rateB), 0, -1 / (1 - nullB));
      setSteps(drift, 3, riseSB, fallSB, 0, 1 / rateB, 0, 1 / nullB);
      drift[DRIFT_HALF_INVERSE_A] = 0.5 / this.countA;
      drift[DRIFT_HALF_INVERSE_B] = 0.5 / this.countB;
    }
    this.clearBlock();
    this.settled = true;
  }
}

/** setSteps(drift, code, ...) writes code's six drift steps (DRIFT_* layout, STEP_* order). */
function setSteps(
  drift: Float64Array,
  code: number,
  rise: number,
  fall: number,
  freeA: number,
  freeB: number,
  nullA: number,
  nullB: number,
): void {
  const step = DRIFT_STEPS + DRIFT_STRIDE * code;
  drift[step + STEP_RISE] = rise;
  drift[step + STEP_FALL] = fall;
  drift[step + STEP_FREE_A] = freeA;
  drift[step + STEP_FREE_B] = freeB;
  drift[step + STEP_NULL_A] = nullA;
  drift[step + STEP_NULL_B] = nullB;
}

/**
 * The drift bound of BernoulliGlrStream.addWithin, on the block's running sums since the
 * anchor held in `drift` (DRIFT_* layout): rise = h(r) - h(q0), fall = h(q1) - h(r), and the
 * gradients of h at r (free) and at q0 (null); `observations` in all. With A the anchor's
 * statistic, the statistic may have reached upper unless max(A, 0) + rise + E(r) + margin <
 * upper, and lower unless max(0, max(A, 0) + rise - E(q0)) - (max(-A, 0) - fall + E(r)) -
 * margin > lower. On the accept side (A <= 0, q0 = r) rise and max(A, 0) are 0 and E(q0) does
 * not matter; on the reject side (A >= 0, q1 = r) fall and max(-A, 0) are 0. Each side's
 * function is that bound with its zero terms left out (the same value). O(1), no logarithm.
 */
function acceptSideMayReach(
  drift: Float64Array,
  fall: number,
  freeA: number,
  freeB: number,
  observations: number,
  upper: number,
  lower: number,
): boolean {
  const freeError = freeA * freeA * drift[DRIFT_HALF_INVERSE_A] + freeB * freeB * drift[DRIFT_HALF_INVERSE_B];
  const margin = BOUND_MARGIN + BOUND_MARGIN_PER_OBSERVATION * observations;
  if (freeError + margin >= upper) return true;
  return -(Math.max(-drift[DRIFT_ANCHOR], 0) - fall + freeError) - margin <= lower;
}

/** The reject side's drift bound (see acceptSideMayReach). O(1). */
function rejectSideMayReach(
  drift: Float64Array,
  rise: number,
  freeA: number,
  freeB: number,
  nullA: number,
  nullB: number,
  observations: number,
  upper: number,
  lower: number,
): boolean {
  const halfA = drift[DRIFT_HALF_INVERSE_A];
  const halfB = drift[DRIFT_HALF_INVERSE_B];
  const freeError = freeA * freeA * halfA + freeB * freeB * halfB;
  const nullError = nullA * nullA * halfA + nullB * nullB * halfB;
  const margin = BOUND_MARGIN + BOUND_MARGIN_PER_OBSERVATION * observations;
  const nullDeficit = Math.max(drift[DRIFT_ANCHOR], 0);
  if (nullDeficit + rise + freeError + margin >= upper) return true;
  return Math.max(0, nullDeficit + rise - nullError) - freeError - margin <= lower;
}

/**
 * farFaceNeeded(near, rate1, rate2, farShift) is add()'s test farBound < (the near face's
 * deficit), farBound = 2 (n1 n2 / n) farShift^2 (Pinsker's bound of the far face; rate1 and
 * rate2 the empirical rates of the near face's groups, n = n1 + n2), decided without
 * logarithms when bounds of that deficit settle it with a margin; otherwise farBound and
 * the deficit are computed as add() computes them. The deficit is the sum over the two
 * groups of n KL(p || q) (p the empirical rate, q the face point's), and
 * KL(p || q) = integral from q to p of (p - u) / (u (1 - u)) du lies between
 * (p - q)^2 / (2 M) and (p - q)^2 / (2 m), M and m the largest and smallest u (1 - u)
 * between p and q (m at an end, M at 1/2 when it lies between them). The bounds are
 * compared times n, so that the settled cases need one division each. O(1).
 */
function farFaceNeeded(near: Float64Array, rate1: number, rate2: number, farShift: number): boolean {
  const s1 = near[FACE_S1];
  const n1 = s1 + near[FACE_F1];
  const s2 = near[FACE_S2];
  const n2 = s2 + near[FACE_F2];
  const x = near[FACE_X];
  const y = x + near[FACE_TOLERANCE];
  const d1 = rate1 - x;
  const d2 = rate2 - y;
  const spread1 = n1 * d1 * d1;
  const spread2 = n2 * d2 * d2;
  const face1 = x * (1 - x);
  const face2 = y * (1 - y);
  const total = n1 + n2;
  const scaledFarBound = 2 * n1 * n2 * farShift * farShift;
  const margin = BOUND_MARGIN + BOUND_MARGIN_PER_OBSERVATION * total;
  // The upper bound first: the far face is usually not needed. A face point at 0 or 1 gives
  // an infinite (or NaN) bound, which settles nothing.
  const small1 = Math.min(face1, rate1 * (1 - rate1));
  const small2 = Math.min(face2, rate2 * (1 - rate2));
  const upperBound = (0.5 * (spread1 * small2 + spread2 * small1)) / (small1 * small2);
  if (scaledFarBound >= (upperBound + margin) * total) return false;
  const large1 = (rate1 - 0.5) * (x - 0.5) <= 0 ? 0.25 : Math.max(face1, rate1 * (1 - rate1));
  const large2 = (rate2 - 0.5) * (y - 0.5) <= 0 ? 0.25 : Math.max(face2, rate2 * (1 - rate2));
  const lowerBound = (0.5 * (spread1 * large2 + spread2 * large1)) / (large1 * large2);
  if (scaledFarBound < (lowerBound - margin) * total) return true;
  const weight = (n1 * n2) / total;
  const farBound = 2 * weight * farShift * farShift;
  writeBernoulliFaceDeficit(near);
  return farBound < near[FACE_DEFICIT];
}

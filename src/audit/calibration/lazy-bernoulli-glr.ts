import {
  FACE_DEFICIT,
  FACE_F1,
  FACE_F2,
  FACE_LENGTH,
  FACE_LOG_F1,
  FACE_LOG_F2,
  FACE_LOG_S1,
  FACE_LOG_S2,
  FACE_S1,
  FACE_S2,
  FACE_TOLERANCE,
  FACE_X,
  solveBernoulliFace,
} from '../../stats/bernoulli-face-maximum.js';

/** Stands for -log 0 in the bounds: finite, so that 0 x it is 0 and any count x it exceeds every threshold. */
const IMPOSSIBLE = 1e15;

/**
 * Slack on both sides of a target, far above the rounding of the statistic and of the
 * bounds (both about 1e-11 for counts of a few thousand), so that a step the bound skips
 * is one where the statistic, as any evaluation would compute it, cannot reach the target.
 */
const SLACK = 1e-6;

/** -log p, with -log 0 = IMPOSSIBLE. */
function cost(p: number): number {
  return p > 0 ? Math.min(-Math.log(p), IMPOSSIBLE) : IMPOSSIBLE;
}

/**
 * The signed Bernoulli GLR of paper A (eq. 22-23, the statistic of bernoulliGlrKernel and
 * BernoulliGlrStream) for a simulation that only needs to know when it reaches a target:
 * add() only counts; evaluate() computes the statistic at the current counts (each face
 * by solveBernoulliFace warm-started from its last maximiser);
 * mayReach(above, below) says whether, since the last evaluation, the statistic can have
 * reached >= above or <= below. The bound is exact, not a heuristic. Write the statistic
 * as Λ = sup_V ℓ - sup_C ℓ (V: |gap| >= tolerance, C: |gap| <= tolerance; ℓ the
 * log-likelihood of both groups' counts). With L the log-likelihood of the observations
 * added since the last evaluation (time n) and θ_C, θ_V the maximisers over C and V at n
 * (one is the empirical rates, the other the face point):
 *   Λ_now - Λ_n <= sup L - L(θ_C)   and   Λ_n - Λ_now <= sup L - L(θ_V),
 * because sup_V ℓ_now <= sup_V ℓ_n + sup L and sup_C ℓ_now >= ℓ_n(θ_C) + L(θ_C) (and the
 * same with C and V swapped). sup L - L(θ) is the new observations' own likelihood ratio
 * against θ: of order 1 when θ is near the truth, whatever their number, so a path far
 * from its targets is evaluated rarely. Costs per add: a few table lookups (n log n for
 * integers up to `capacity`). Kernel: no validation (group 0/1, value 0/1, at most
 * `capacity` observations per group between evaluations, 0 < tolerance < 1).
 * @example
 * const glr = new LazyBernoulliGlr(4000);
 * glr.reset(0.05);
 * glr.add(0, 1);
 * glr.add(1, 0);
 * if (glr.mayReach(3, -2)) glr.evaluate(); // glr.statistic is the GLR at the counts
 */
export class LazyBernoulliGlr {
  /** The statistic at the last evaluate() (0 before any). */
  statistic = 0;
  /** Whether the last advance() stopped where mayReach was true (else at its end). */
  reached = false;
  private countA = 0;
  private positivesA = 0;
  private countB = 0;
  private positivesB = 0;
  private tolerance = 0.05;
  private anchored = false;
  /** The two face problems (solveBernoulliFace's layout; x = theta_a on plus, theta_b on minus), warm-started. */
  private readonly plus = new Float64Array(FACE_LENGTH);
  private readonly minus = new Float64Array(FACE_LENGTH);
  /** Observations and positives per group since the last evaluation. */
  private newA = 0;
  private newPositivesA = 0;
  private newB = 0;
  private newPositivesB = 0;
  /** -log of theta_C's and theta_V's rates of a positive and a negative, group a then b. */
  private readonly costC = new Float64Array(4);
  private readonly costV = new Float64Array(4);
  /**
   * Running lower bounds on how far the statistic is from mayReach's targets (roomAbove,
   * roomBelow) since the last exact check: each add() takes off its observation's cost
   * under theta_C (rise) and theta_V (fall), by which it raises the bounds at most.
   */
  private roomRise = 0;
  private roomFall = 0;
  private roomAbove = Number.NaN;
  private roomBelow = Number.NaN;
  /** n log n for n = 0 .. capacity. */
  private readonly nLogN: Float64Array;
  /** log n for n = 1 .. capacity (the empirical rates' costs without a logarithm). */
  private readonly logN: Float64Array;

  constructor(capacity: number) {
    this.nLogN = new Float64Array(capacity + 1);
    this.logN = new Float64Array(capacity + 1);
    for (let n = 1; n <= capacity; n++) {
      this.logN[n] = Math.log(n);
      this.nLogN[n] = n * this.logN[n];
    }
  }

  /** True once both groups have an observation (the statistic is defined). */
  get ready(): boolean {
    return this.countA > 0 && this.countB > 0;
  }

  reset(tolerance: number): void {
    this.countA = 0;
    this.positivesA = 0;
    this.countB = 0;
    this.positivesB = 0;
    this.tolerance = tolerance;
    this.statistic = 0;
    this.anchored = false;
    this.roomAbove = Number.NaN;
    this.plus[FACE_X] = -1;
    this.minus[FACE_X] = -1;
    this.plus[FACE_TOLERANCE] = tolerance;
    this.minus[FACE_TOLERANCE] = tolerance;
  }

  add(group: number, value: number): void {
    const kind = 2 * group + 1 - value;
    this.roomRise -= this.costC[kind];
    this.roomFall -= this.costV[kind];
    if (group === 0) {
      this.countA++;
      this.positivesA += value;
      this.newA++;
      this.newPositivesA += value;
    } else {
      this.countB++;
      this.positivesB += value;
      this.newB++;
      this.newPositivesB += value;
    }
  }

  /**
   * advance(groups, ranks, t, end, positivesA, positivesB, minimum, above, below) folds in
   * queries t, t + 1, ... of a shared path (query s hits group groups[s] and reads a positive
   * decision when ranks[s] is below that group's positives) as add() does, and stops after the
   * first query at which each group has `minimum` observations and mayReach(above, below) is
   * true, or at `end`. Returns the index of the next query; `reached` says which stop it was.
   * The same counts and answers as add() and mayReach() called per query (mayReach only once
   * both groups have `minimum`): it computes mayReach's exact bound at every query, on locals,
   * rather than a running room that runs out every few queries (a branch no predictor learns).
   * O(end - t).
   */
  advance(
    groups: Uint8Array,
    ranks: Int32Array,
    t: number,
    end: number,
    positivesA: number,
    positivesB: number,
    minimum: number,
    above: number,
    below: number,
  ): number {
    const costC = this.costC;
    const costV = this.costV;
    const step = positivesB - positivesA;
    this.reached = false;
    // Until both groups have `minimum` observations no check is due: queries are only counted (and the rooms
    // kept, as add() keeps them); before the first evaluation there is nothing to bound from, and mayReach says
    // so. Counts never fall, so the loop after it needs neither test.
    while (t < end && (!this.anchored || this.countA < minimum || this.countB < minimum)) {
      const b = groups[t];
      const value = (ranks[t] - (positivesA + b * step)) >>> 31;
      t++;
      this.add(b, value);
      if (this.countA >= minimum && this.countB >= minimum && this.mayReach(above, below)) {
        this.reached = true;
        return t;
      }
    }
    // mayReach's exact bound at every query, on locals: the new observations' own log-likelihood from the
    // n log n table and their cost under theta_C and theta_V as running sums. One branch a query, rarely taken.
    const nLogN = this.nLogN;
    const riseRoom = above - SLACK - this.statistic;
    const fallRoom = this.statistic - (below + SLACK);
    let newA = this.newA;
    let newHitsA = this.newPositivesA;
    let newB = this.newB;
    let newHitsB = this.newPositivesB;
    let costOfC =
      newHitsA * costC[0] + (newA - newHitsA) * costC[1] + newHitsB * costC[2] + (newB - newHitsB) * costC[3];
    let costOfV =
      newHitsA * costV[0] + (newA - newHitsA) * costV[1] + newHitsB * costV[2] + (newB - newHitsB) * costV[3];
    while (t < end) {
      // Without a branch (group and decision are coin flips to a branch predictor): the group's positives,
      // and the decision 1 exactly when rank - positives is negative (its sign bit; both are int32).
      const b = groups[t];
      const value = (ranks[t] - (positivesA + b * step)) >>> 31;
      t++;
      const kind = 2 * b + 1 - value;
      costOfC += costC[kind];
      costOfV += costV[kind];
      const a = 1 - b;
      newA += a;
      newHitsA += a & value;
      newB += b;
      newHitsB += b & value;
      const own =
        nLogN[newHitsA] + nLogN[newA - newHitsA] - nLogN[newA] + nLogN[newHitsB] + nLogN[newB - newHitsB] - nLogN[newB];
      if (own + costOfC < riseRoom && own + costOfV < fallRoom) continue;
      this.reached = true;
      break;
    }
    this.countA += newA - this.newA;
    this.positivesA += newHitsA - this.newPositivesA;
    this.countB += newB - this.newB;
    this.positivesB += newHitsB - this.newPositivesB;
    this.newA = newA;
    this.newPositivesA = newHitsA;
    this.newB = newB;
    this.newPositivesB = newHitsB;
    // add()'s running rooms were not kept: mayReach recomputes.
    this.roomAbove = Number.NaN;
    return t;
  }

  /**
   * mayReach(above, below) is false only when the statistic cannot have reached >= above
   * or <= below at any count since the last evaluation (true before the first). O(1).
   */
  mayReach(above: number, below: number): boolean {
    if (!this.anchored) return true;
    // Since the last exact check each observation x raised the rise bound by at most -log theta_C(x) (sup L
    // cannot grow: log-likelihoods are <= 0) and the fall bound by at most -log theta_V(x): rooms left, no reach.
    if (above === this.roomAbove && below === this.roomBelow && this.roomRise > 0 && this.roomFall > 0) return false;
    const t = this.nLogN;
    const a = this.newA;
    const pa = this.newPositivesA;
    const b = this.newB;
    const pb = this.newPositivesB;
    // sup L: the new observations at their own rates.
    const own = t[pa] + t[a - pa] - t[a] + t[pb] + t[b - pb] - t[b];
    const c = this.costC;
    const rise = own + pa * c[0] + (a - pa) * c[1] + pb * c[2] + (b - pb) * c[3];
    const v = this.costV;
    const fall = own + pa * v[0] + (a - pa) * v[1] + pb * v[2] + (b - pb) * v[3];
    this.roomAbove = above;
    this.roomBelow = below;
    this.roomRise = above - SLACK - (this.statistic + rise);
    this.roomFall = this.statistic - fall - (below + SLACK);
    return this.roomRise <= 0 || this.roomFall <= 0;
  }

  /** evaluate() computes the statistic at the current counts (needs ready) and returns it. O(1) face solves. */
  evaluate(): number {
    const sa = this.positivesA;
    const fa = this.countA - sa;
    const sb = this.positivesB;
    const fb = this.countB - sb;
    const tolerance = this.tolerance;
    const gap = sb / this.countB - sa / this.countA;
    // The face point that is the other maximiser (the empirical rates are one of the two).
    let faceA: number;
    let faceB: number;
    let statistic: number;
    // The face whose point is the other maximiser (its deficit's logarithms give that point's costs).
    let face = this.plus;
    if (gap > tolerance) {
      statistic = Math.max(this.solvePlus(sa, fa, sb, fb), 0);
      faceA = this.plus[FACE_X];
      faceB = faceA + tolerance;
    } else if (gap < -tolerance) {
      statistic = Math.max(this.solveMinus(sa, fa, sb, fb), 0);
      faceB = this.minus[FACE_X];
      faceA = faceB + tolerance;
      face = this.minus;
    } else {
      // Compliant side: the better face, the near one first, the far one only where
      // Pinsker's bound on its deficit, 2 (nA nB / n)(tolerance + |gap|)^2, does not rule it out.
      const farShift = tolerance + Math.abs(gap);
      const farBound = 2 * ((this.countA * this.countB) / (this.countA + this.countB)) * farShift * farShift;
      const ahead = gap >= 0;
      let plus = Number.POSITIVE_INFINITY;
      let minus = Number.POSITIVE_INFINITY;
      if (ahead) plus = this.solvePlus(sa, fa, sb, fb);
      else minus = this.solveMinus(sa, fa, sb, fb);
      if (farBound < (ahead ? plus : minus)) {
        if (ahead) minus = this.solveMinus(sa, fa, sb, fb);
        else plus = this.solvePlus(sa, fa, sb, fb);
      }
      if (plus <= minus) {
        faceA = this.plus[FACE_X];
        faceB = faceA + tolerance;
      } else {
        faceB = this.minus[FACE_X];
        faceA = faceB + tolerance;
        face = this.minus;
      }
      statistic = Math.min(-Math.min(plus, minus), 0);
    }
    // theta_C is the empirical rates on the compliant side, the face point otherwise; theta_V the reverse.
    const compliant = !(gap > tolerance || gap < -tolerance);
    this.setRateCosts(compliant ? this.costC : this.costV, sa, fa, sb, fb);
    this.setFaceCosts(compliant ? this.costV : this.costC, face, faceA, faceB);
    this.statistic = statistic;
    this.anchored = true;
    this.roomAbove = Number.NaN;
    this.newA = 0;
    this.newPositivesA = 0;
    this.newB = 0;
    this.newPositivesB = 0;
    return statistic;
  }

  /** The face theta_b = theta_a + tolerance: solved in place, its deficit returned. */
  private solvePlus(sa: number, fa: number, sb: number, fb: number): number {
    const face = this.plus;
    face[FACE_S1] = sa;
    face[FACE_F1] = fa;
    face[FACE_S2] = sb;
    face[FACE_F2] = fb;
    solveBernoulliFace(face);
    return face[FACE_DEFICIT];
  }

  /** The face theta_a = theta_b + tolerance. */
  private solveMinus(sa: number, fa: number, sb: number, fb: number): number {
    const face = this.minus;
    face[FACE_S1] = sb;
    face[FACE_F1] = fb;
    face[FACE_S2] = sa;
    face[FACE_F2] = fa;
    solveBernoulliFace(face);
    return face[FACE_DEFICIT];
  }

  /** The costs of the empirical rates, -log(s / n) = log n - log s from the table (no logarithm). */
  private setRateCosts(into: Float64Array, sa: number, fa: number, sb: number, fb: number): void {
    const log = this.logN;
    const na = sa + fa;
    const nb = sb + fb;
    into[0] = sa > 0 ? log[na] - log[sa] : IMPOSSIBLE;
    into[1] = fa > 0 ? log[na] - log[fa] : IMPOSSIBLE;
    into[2] = sb > 0 ? log[nb] - log[sb] : IMPOSSIBLE;
    into[3] = fb > 0 ? log[nb] - log[fb] : IMPOSSIBLE;
  }

  /**
   * The costs of the face point (faceA, faceB) just solved in `face`: its deficit's logarithm
   * log(s / (n q)) is log(s / n) - log q, so -log q is that logarithm plus log n - log s (from the
   * table); a count of 0 has no such logarithm and takes cost(q).
   */
  private setFaceCosts(into: Float64Array, face: Float64Array, faceA: number, faceB: number): void {
    const log = this.logN;
    const s1 = face[FACE_S1];
    const f1 = face[FACE_F1];
    const s2 = face[FACE_S2];
    const f2 = face[FACE_F2];
    const n1 = s1 + f1;
    const n2 = s2 + f2;
    const first = face === this.plus ? faceA : faceB;
    const second = face === this.plus ? faceB : faceA;
    const success1 = s1 > 0 ? Math.min(face[FACE_LOG_S1] + log[n1] - log[s1], IMPOSSIBLE) : cost(first);
    const failure1 = f1 > 0 ? Math.min(face[FACE_LOG_F1] + log[n1] - log[f1], IMPOSSIBLE) : cost(1 - first);
    const success2 = s2 > 0 ? Math.min(face[FACE_LOG_S2] + log[n2] - log[s2], IMPOSSIBLE) : cost(second);
    const failure2 = f2 > 0 ? Math.min(face[FACE_LOG_F2] + log[n2] - log[f2], IMPOSSIBLE) : cost(1 - second);
    // Group 1 of the plus face is a, of the minus face b.
    const plus = face === this.plus;
    into[0] = plus ? success1 : success2;
    into[1] = plus ? failure1 : failure2;
    into[2] = plus ? success2 : success1;
    into[3] = plus ? failure2 : failure1;
  }
}

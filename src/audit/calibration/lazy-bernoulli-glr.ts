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

/**
 * riseRoom(above) is how far U - G must be from 0 on the violating side for the statistic
 * to reach above, less the slack; fallRoom(below) the same on the compliant side for below.
 * A target on the wrong side of 0 gives -Infinity (every query is then evaluated), so the
 * bound stays exact for any targets.
 */
function riseRoom(above: number): number {
  return above > 0 ? above - SLACK : Number.NEGATIVE_INFINITY;
}

function fallRoom(below: number): number {
  return below < 0 ? -below - SLACK : Number.NEGATIVE_INFINITY;
}

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
 * reached >= above (> 0) or <= below (< 0). The bound is exact, not a heuristic. With ℓ the
 * log-likelihood of both groups' counts, U = sup ℓ (the empirical rates, exact from an
 * n log n table) and G = sup ℓ over the two faces |gap| = tolerance, the statistic is
 * +(U - G) when the empirical gap violates the tolerance and -(U - G) when it complies.
 * Reaching above needs the violating side with U - G >= above; reaching below, the
 * compliant side with U - G >= -below. G at the current counts is at least the log-likelihood,
 * at those counts, of the face point θ_F that maximised at the last evaluation: ℓ_n(θ_F)
 * plus the new observations' log-likelihood under θ_F (a running sum of their costs
 * -log θ_F). So U - G <= U_now - U_n + D_n + cost_F(new), D_n the distance U - G at the last
 * evaluation: exact up to the curvature of G, which is of order (new observations)^2 / n,
 * so a path far from its targets is evaluated rarely. Costs per add: six table lookups
 * and the side of the gap. Kernel: no validation (group 0/1, value 0/1, at most `capacity`
 * observations per group, 0 < tolerance < 1).
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
  /** -log of the last evaluation's face point's rates of a positive and a negative, group a then b. */
  private readonly costF = new Float64Array(4);
  /** D_n - U_n at the last evaluation: the bound on U - G is U_now plus this plus the new observations' costs. */
  private offset = 0;
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
    this.plus[FACE_X] = -1;
    this.minus[FACE_X] = -1;
    this.plus[FACE_TOLERANCE] = tolerance;
    this.minus[FACE_TOLERANCE] = tolerance;
  }

  /** copyFrom(source) makes this the same statistic state as source (same capacity), to walk on from there. */
  copyFrom(source: LazyBernoulliGlr): void {
    this.statistic = source.statistic;
    this.reached = source.reached;
    this.countA = source.countA;
    this.positivesA = source.positivesA;
    this.countB = source.countB;
    this.positivesB = source.positivesB;
    this.tolerance = source.tolerance;
    this.anchored = source.anchored;
    this.plus.set(source.plus);
    this.minus.set(source.minus);
    this.newA = source.newA;
    this.newPositivesA = source.newPositivesA;
    this.newB = source.newB;
    this.newPositivesB = source.newPositivesB;
    this.costF.set(source.costF);
    this.offset = source.offset;
  }

  add(group: number, value: number): void {
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
   * both groups have `minimum`), with mayReach's bound on locals and without a branch on the
   * group or the decision. O(end - t).
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
    const step = positivesB - positivesA;
    this.reached = false;
    // Until both groups have `minimum` observations no check is due: queries are only counted; before the first
    // evaluation there is nothing to bound from, and mayReach says so. Counts never fall, so the loop after it needs
    // neither test.
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
    const nLogN = this.nLogN;
    const costF = this.costF;
    const tolerance = this.tolerance;
    const rise = riseRoom(above);
    const fall = fallRoom(below);
    const nearer = Math.min(rise, fall);
    const offset = this.offset;
    let countA = this.countA;
    let hitsA = this.positivesA;
    let countB = this.countB;
    let hitsB = this.positivesB;
    const newHitsA = this.newPositivesA;
    const newHitsB = this.newPositivesB;
    let costOfF =
      newHitsA * costF[0] + (this.newA - newHitsA) * costF[1] + newHitsB * costF[2] + (this.newB - newHitsB) * costF[3];
    while (t < end) {
      // Without a branch (group and decision are coin flips to a branch predictor): the group's positives,
      // and the decision 1 exactly when rank - positives is negative (its sign bit; both are int32).
      const b = groups[t];
      const value = (ranks[t] - (positivesA + b * step)) >>> 31;
      t++;
      costOfF += costF[2 * b + 1 - value];
      const a = 1 - b;
      countA += a;
      hitsA += a & value;
      countB += b;
      hitsB += b & value;
      const distance =
        nLogN[hitsA] +
        nLogN[countA - hitsA] -
        nLogN[countA] +
        nLogN[hitsB] +
        nLogN[countB - hitsB] -
        nLogN[countB] +
        offset +
        costOfF;
      if (distance < nearer) continue;
      // Within reach of the nearer room: the side decides. The gap violates the tolerance when
      // |hitsB countA - hitsA countB| > tolerance countA countB.
      const violating = Math.abs(hitsB * countA - hitsA * countB) > tolerance * countA * countB;
      if (distance < (violating ? rise : fall)) continue;
      this.reached = true;
      break;
    }
    this.newA += countA - this.countA;
    this.newPositivesA += hitsA - this.positivesA;
    this.newB += countB - this.countB;
    this.newPositivesB += hitsB - this.positivesB;
    this.countA = countA;
    this.positivesA = hitsA;
    this.countB = countB;
    this.positivesB = hitsB;
    return t;
  }

  /**
   * mayReach(above, below) is false only when the statistic cannot have reached >= above
   * or <= below at any count since the last evaluation (true before the first). O(1).
   */
  mayReach(above: number, below: number): boolean {
    if (!this.anchored) return true;
    const t = this.nLogN;
    const sa = this.positivesA;
    const na = this.countA;
    const sb = this.positivesB;
    const nb = this.countB;
    const c = this.costF;
    const pa = this.newPositivesA;
    const pb = this.newPositivesB;
    const costOfF = pa * c[0] + (this.newA - pa) * c[1] + pb * c[2] + (this.newB - pb) * c[3];
    const distance = t[sa] + t[na - sa] - t[na] + t[sb] + t[nb - sb] - t[nb] + this.offset + costOfF;
    const violating = Math.abs(sb * na - sa * nb) > this.tolerance * na * nb;
    return distance >= (violating ? riseRoom(above) : fallRoom(below));
  }

  /** evaluate() computes the statistic at the current counts (needs ready) and returns it. O(1) face solves. */
  evaluate(): number {
    const sa = this.positivesA;
    const fa = this.countA - sa;
    const sb = this.positivesB;
    const fb = this.countB - sb;
    const tolerance = this.tolerance;
    const gap = sb / this.countB - sa / this.countA;
    // The face point that maximises over the faces, and its deficit U - G.
    let faceA: number;
    let faceB: number;
    let statistic: number;
    let deficit: number;
    let face = this.plus;
    if (gap > tolerance) {
      deficit = this.solvePlus(sa, fa, sb, fb);
      statistic = Math.max(deficit, 0);
      faceA = this.plus[FACE_X];
      faceB = faceA + tolerance;
    } else if (gap < -tolerance) {
      deficit = this.solveMinus(sa, fa, sb, fb);
      statistic = Math.max(deficit, 0);
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
        deficit = plus;
      } else {
        faceB = this.minus[FACE_X];
        faceA = faceB + tolerance;
        face = this.minus;
        deficit = minus;
      }
      statistic = Math.min(-deficit, 0);
    }
    this.setFaceCosts(this.costF, face, faceA, faceB);
    const t = this.nLogN;
    const unconstrained = t[sa] + t[fa] - t[sa + fa] + t[sb] + t[fb] - t[sb + fb];
    this.offset = deficit - unconstrained;
    this.statistic = statistic;
    this.anchored = true;
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

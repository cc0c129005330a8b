import {
  FACE_DEFICIT,
  FACE_F1,
  FACE_F2,
  FACE_LENGTH,
  FACE_S1,
  FACE_S2,
  FACE_TOLERANCE,
  FACE_X,
  solveBernoulliFace,
} from './bernoulli-face-maximum.js';
import type { GlrStream } from './glr-stream.js';

/**
 * The Bernoulli GLR of paper A (eq. 22-23, appendix A) maintained incrementally: each
 * add() updates the counts of one group and the boundary maximum by a Halley step
 * warm-started from the previous update's maximiser (one step after one new observation,
 * two early in a stream), then evaluates the likelihood deficit of that face point (four
 * logs). On the accept side the far face is skipped when Pinsker's inequality bounds its
 * deficit above the near face's: it is at least 2 (nA nB / n)(tolerance + |gap|)^2.
 * `statistic` is the exact signed statistic of bernoulliGlrKernel.
 * O(1) per add, no allocation (the face problems live in typed arrays, so no double is
 * boxed crossing a call).
 */
export class BernoulliGlrStream implements GlrStream {
  statistic = 0;
  private countA = 0;
  private positivesA = 0;
  private countB = 0;
  private positivesB = 0;
  private tolerance = 0.05;
  /** The face theta_b = theta_a + tolerance (x = theta_a). */
  private readonly plus = new Float64Array(FACE_LENGTH);
  /** The face theta_a = theta_b + tolerance (x = theta_b). */
  private readonly minus = new Float64Array(FACE_LENGTH);

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
  }

  /** Solves the face theta_b = theta_a + tolerance for the current counts; returns its deficit. */
  private solvePlus(sa: number, fa: number, sb: number, fb: number): number {
    const face = this.plus;
    face[FACE_S1] = sa;
    face[FACE_F1] = fa;
    face[FACE_S2] = sb;
    face[FACE_F2] = fb;
    solveBernoulliFace(face);
    return face[FACE_DEFICIT];
  }

  /** Solves the face theta_a = theta_b + tolerance for the current counts; returns its deficit. */
  private solveMinus(sa: number, fa: number, sb: number, fb: number): number {
    const face = this.minus;
    face[FACE_S1] = sb;
    face[FACE_F1] = fb;
    face[FACE_S2] = sa;
    face[FACE_F2] = fa;
    solveBernoulliFace(face);
    return face[FACE_DEFICIT];
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
    if (gap > tolerance) {
      this.statistic = Math.max(this.solvePlus(sa, fa, sb, fb), 0);
      return;
    }
    if (gap < -tolerance) {
      this.statistic = Math.max(this.solveMinus(sa, fa, sb, fb), 0);
      return;
    }
    // Accept side: minus the smaller face deficit; the near face first, the far one only
    // if Pinsker's bound does not already rule it out.
    const weight = (this.countA * this.countB) / (this.countA + this.countB);
    const farShift = tolerance + Math.abs(gap);
    const farBound = 2 * weight * farShift * farShift;
    let best: number;
    if (gap >= 0) {
      best = this.solvePlus(sa, fa, sb, fb);
      if (farBound < best) best = Math.min(best, this.solveMinus(sa, fa, sb, fb));
    } else {
      best = this.solveMinus(sa, fa, sb, fb);
      if (farBound < best) best = Math.min(best, this.solvePlus(sa, fa, sb, fb));
    }
    this.statistic = Math.min(-best, 0);
  }
}

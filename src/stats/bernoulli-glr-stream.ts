import { bernoulliFaceArgmax, bernoulliFaceLogLikelihood } from './bernoulli-face-maximum.js';
import { bernoulliMaximumLogLikelihood } from './bernoulli-glr.js';
import type { GlrStream } from './glr-stream.js';

/**
 * The Bernoulli GLR of paper A (eq. 22-23, appendix A) maintained incrementally: each
 * add() updates the counts of one group, that group's empirical log-likelihood, and the
 * boundary maxima by Newton steps warm-started from the previous
 * update's maximisers (one or two steps after one new observation). On the accept side
 * the far face is skipped when Pinsker's inequality bounds its maximum below the near
 * face's: its likelihood deficit is at least 2 (nA nB / n)(tolerance + |gap|)^2.
 * The value returned is the same exact signed statistic as bernoulliGlrKernel.
 * O(1) per add, no allocation.
 */
export class BernoulliGlrStream implements GlrStream {
  private countA = 0;
  private positivesA = 0;
  private countB = 0;
  private positivesB = 0;
  private tolerance = 0.05;
  private empiricalA = 0;
  private empiricalB = 0;
  /** Warm starts: theta_a on the face theta_b = theta_a + tolerance, theta_b on theta_a = theta_b + tolerance. */
  private plusStart = -1;
  private minusStart = -1;
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
    this.empiricalA = 0;
    this.empiricalB = 0;
    this.tolerance = tolerance;
    this.plusStart = -1;
    this.minusStart = -1;
  }

  add(group: number, value: number): number {
    if (group === 0) {
      this.countA++;
      this.positivesA += value;
      this.empiricalA = bernoulliMaximumLogLikelihood(this.positivesA, this.countA);
    } else {
      this.countB++;
      this.positivesB += value;
      this.empiricalB = bernoulliMaximumLogLikelihood(this.positivesB, this.countB);
    }
    if (this.countA === 0 || this.countB === 0) return 0;
    return this.statistic();
  }

  private statistic(): number {
    const sa = this.positivesA;
    const fa = this.countA - sa;
    const sb = this.positivesB;
    const fb = this.countB - sb;
    const tolerance = this.tolerance;
    const empirical = this.empiricalA + this.empiricalB;
    const gap = sb / this.countB - sa / this.countA;
    if (gap > tolerance) {
      const x = bernoulliFaceArgmax(sa, fa, sb, fb, tolerance, this.plusStart);
      this.plusStart = x;
      const value = empirical - bernoulliFaceLogLikelihood(sa, fa, sb, fb, tolerance, x);
      return Math.max(value, 0);
    }
    if (gap < -tolerance) {
      const x = bernoulliFaceArgmax(sb, fb, sa, fa, tolerance, this.minusStart);
      this.minusStart = x;
      const value = empirical - bernoulliFaceLogLikelihood(sb, fb, sa, fa, tolerance, x);
      return Math.max(value, 0);
    }
    // Accept side: the larger face maximum; the near face first, the far one only if
    // Pinsker's bound does not already rule it out.
    const weight = (this.countA * this.countB) / (this.countA + this.countB);
    const farShift = tolerance + Math.abs(gap);
    const farBound = empirical - 2 * weight * farShift * farShift;
    let best: number;
    if (gap >= 0) {
      const x = bernoulliFaceArgmax(sa, fa, sb, fb, tolerance, this.plusStart);
      this.plusStart = x;
      best = bernoulliFaceLogLikelihood(sa, fa, sb, fb, tolerance, x);
      if (farBound > best) {
        const y = bernoulliFaceArgmax(sb, fb, sa, fa, tolerance, this.minusStart);
        this.minusStart = y;
        const other = bernoulliFaceLogLikelihood(sb, fb, sa, fa, tolerance, y);
        if (other > best) best = other;
      }
    } else {
      const y = bernoulliFaceArgmax(sb, fb, sa, fa, tolerance, this.minusStart);
      this.minusStart = y;
      best = bernoulliFaceLogLikelihood(sb, fb, sa, fa, tolerance, y);
      if (farBound > best) {
        const x = bernoulliFaceArgmax(sa, fa, sb, fb, tolerance, this.plusStart);
        this.plusStart = x;
        const other = bernoulliFaceLogLikelihood(sa, fa, sb, fb, tolerance, x);
        if (other > best) best = other;
      }
    }
    const value = best - empirical;
    return Math.min(value, 0);
  }
}

import { compareCountDifference } from './count-gap-comparison.js';
import { ACCEPT, CONTINUE, REJECT, type SequentialTest } from './sequential-test.js';
import { WorConfidenceSequence } from './wor-confidence-sequence.js';

/** Decisions need the interval to clear the tolerance by this much (rounding of the bounds). */
const MARGIN = 1e-12;

/**
 * The tolerance test read off confidence sequences: a WorConfidenceSequence per group at
 * level alpha / 2 each gives, by the union bound, a confidence sequence for the gap
 * mu_b - mu_a, [lower_b - upper_a, upper_b - lower_a], that holds at all times with
 * probability >= 1 - alpha; a second pair at level beta / 2 each gives one at 1 - beta.
 * Reject (violation) once the alpha-sequence excludes [-tolerance, tolerance]; accept
 * (compliance) once the beta-sequence lies inside (-tolerance, tolerance). Then
 *   P(reject) <= alpha when |gap| <= tolerance (a rejection needs the alpha-sequence to miss
 *   the gap), and P(accept) <= beta when |gap| >= tolerance (likewise),
 * at any stopping time. Rejection is checked first. Decisions need the interval to clear
 * the tolerance by 1e-12 (rounding); once both groups are exhausted the gap is known and,
 * for 0/1 values, compared exactly on counts (for scores, within 1e-12 of the tolerance
 * counts as on it: undecided).
 *
 * Simpler and weaker than TwoSampleBettingTest: the union bound spends alpha / 4 on each of
 * four one-sided bounds and the two groups' evidence does not add up. Kept as the
 * confidence-sequence view of the audit (its intervals are reportable) and as a baseline.
 * O(1) per add (one sequence per group and level updates). Kernel: no validation.
 * @param countA rows of group a in the pool
 * @param countB rows of group b in the pool
 * @param tolerance δ on the gap, values in [0, 1]
 * @param alpha the level of false violations
 * @param beta the level of false compliance
 * @param integerValues true when every value is 0 or 1 (decisions)
 * @example
 * const test = new GapConfidenceSequenceTest(600, 400, 0.05, 0.05, 0.2, true);
 * test.add(0, 1);
 * const [low, high] = test.gapInterval();
 */
export class GapConfidenceSequenceTest implements SequentialTest {
  verdict = CONTINUE;
  readonly rejectA: WorConfidenceSequence;
  readonly rejectB: WorConfidenceSequence;
  readonly acceptA: WorConfidenceSequence;
  readonly acceptB: WorConfidenceSequence;

  constructor(
    readonly countA: number,
    readonly countB: number,
    readonly tolerance: number,
    alpha: number,
    beta: number,
    readonly integerValues: boolean,
  ) {
    this.rejectA = new WorConfidenceSequence(countA, alpha / 2);
    this.rejectB = new WorConfidenceSequence(countB, alpha / 2);
    this.acceptA = new WorConfidenceSequence(countA, beta / 2);
    this.acceptB = new WorConfidenceSequence(countB, beta / 2);
  }

  /** The alpha-level confidence sequence for mu_b - mu_a after the last add(). */
  get gapLower(): number {
    return this.rejectB.lower - this.rejectA.upper;
  }

  get gapUpper(): number {
    return this.rejectB.upper - this.rejectA.lower;
  }

  /** [gapLower, gapUpper]: the 1 - alpha confidence sequence for mu_b - mu_a, valid at every time. */
  gapInterval(): readonly [number, number] {
    return [this.gapLower, this.gapUpper];
  }

  reset(): void {
    this.verdict = CONTINUE;
    this.rejectA.reset();
    this.rejectB.reset();
    this.acceptA.reset();
    this.acceptB.reset();
  }

  add(group: number, value: number): void {
    if (group === 0) {
      this.rejectA.add(value);
      this.acceptA.add(value);
    } else {
      this.rejectB.add(value);
      this.acceptB.add(value);
    }
    const tolerance = this.tolerance;
    const a = this.rejectA;
    const b = this.rejectB;
    if (a.count === this.countA && b.count === this.countB) {
      // Both groups exhausted: the gap is known.
      let above: number;
      let below: number;
      if (this.integerValues) {
        above = compareCountDifference(this.countA, a.sum, this.countB, b.sum, tolerance);
        below = compareCountDifference(this.countB, b.sum, this.countA, a.sum, tolerance);
      } else {
        // Sums of scores carry rounding: within MARGIN of the tolerance counts as on it.
        const gap = b.sum / this.countB - a.sum / this.countA;
        above = gap > tolerance + MARGIN ? 1 : gap < tolerance - MARGIN ? -1 : 0;
        below = -gap > tolerance + MARGIN ? 1 : -gap < tolerance - MARGIN ? -1 : 0;
      }
      this.verdict = above > 0 || below > 0 ? REJECT : above < 0 && below < 0 ? ACCEPT : CONTINUE;
      return;
    }
    if (b.lower - a.upper > tolerance + MARGIN || a.lower - b.upper > tolerance + MARGIN) {
      this.verdict = REJECT;
      return;
    }
    const ca = this.acceptA;
    const cb = this.acceptB;
    if (cb.upper - ca.lower < tolerance - MARGIN && ca.upper - cb.lower < tolerance - MARGIN) this.verdict = ACCEPT;
  }
}

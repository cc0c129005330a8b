import { ACCEPT, CONTINUE, REJECT, type SequentialTest } from '../sequential-test.js';

/**
 * Equalized odds as two tests run side by side: one of the false-positive-rate gap on the
 * label-0 rows and one of the true-positive-rate gap on the label-1 rows, each built at level
 * alpha / 2 (the caller's job) and at the full beta.
 * - Reject (violation) as soon as either test rejects: when both rates are compliant each
 *   rejects with probability <= alpha / 2, so P(reject) <= alpha (Bonferroni; at any stopping
 *   time when both tests are anytime-valid).
 * - Accept (compliance) once both tests have accepted: when either rate violates, that rate's
 *   test accepts with probability <= beta, so P(accept) <= beta with no split
 *   (intersection-union).
 * A row is added as add(label * groupCount + group, value): codes 0..K-1 are label-0 rows of
 * groups 0..K-1 (the FPR test), codes K..2K-1 label-1 rows (the TPR test). Each test keeps
 * seeing its rows after it has accepted, so a later rejection still counts. O(1) per add beyond
 * the tests' own.
 * @param falsePositiveTest the test of the FPR gap (label-0 rows), at alpha / 2
 * @param truePositiveTest the test of the TPR gap (label-1 rows), at alpha / 2
 * @param groupCount K
 * @example
 * const test = new EqualizedOddsTest(falsePositiveTest, truePositiveTest, 3);
 * test.add(1 * 3 + 2, 1); // a label-1 row of group 2 with decision 1
 */
export class EqualizedOddsTest implements SequentialTest {
  verdict = CONTINUE;
  private falsePositiveAccepted = false;
  private truePositiveAccepted = false;

  constructor(
    readonly falsePositiveTest: SequentialTest,
    readonly truePositiveTest: SequentialTest,
    readonly groupCount: number,
  ) {}

  reset(): void {
    this.falsePositiveTest.reset();
    this.truePositiveTest.reset();
    this.falsePositiveAccepted = false;
    this.truePositiveAccepted = false;
    this.verdict = CONTINUE;
  }

  add(code: number, value: number): void {
    const k = this.groupCount;
    const test = code >= k ? this.truePositiveTest : this.falsePositiveTest;
    test.add(code >= k ? code - k : code, value);
    if (test.verdict === REJECT) {
      this.verdict = REJECT;
      return;
    }
    if (test.verdict === ACCEPT) {
      if (code >= k) this.truePositiveAccepted = true;
      else this.falsePositiveAccepted = true;
    }
    if (this.falsePositiveAccepted && this.truePositiveAccepted) this.verdict = ACCEPT;
  }
}

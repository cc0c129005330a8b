import type { GlrStream } from './glr-stream.js';
import { ACCEPT, CONTINUE, REJECT, type SequentialTest } from './sequential-test.js';

/**
 * The sequential GLR test of paper A section 3.5 with given stopping thresholds: reject
 * once the signed statistic is >= upper, accept once it is <= lower, but only once the
 * statistic is defined (stream.ready) and each group has at least minimumPerGroup
 * observations (paper A's start rule is 1). With Wald's thresholds (sequentialThresholds)
 * it is paper A's test; with calibrated ones (calibrateGlrThresholds) it is the
 * calibrated GLR. Exactly the rule of runSequentialAudit. Kernel: no validation
 * (upper > lower, minimumPerGroup >= 1). O(1) per add beyond the stream's own update.
 * @param stream the GLR's running statistic (BernoulliGlrStream or GaussianGlrStream)
 * @param tolerance δ or τ
 * @param upper reject once the statistic reaches it
 * @param lower accept once the statistic falls to it
 * @param minimumPerGroup observations each group needs before the test may decide
 * @example
 * const { upper, lower } = sequentialThresholds(0.05, 0.2);
 * const test = new GlrThresholdTest(new BernoulliGlrStream(), 0.05, upper, lower, 1);
 * test.add(0, 1); // group a, decision 1; test.verdict is REJECT, ACCEPT or CONTINUE
 */
export class GlrThresholdTest implements SequentialTest {
  verdict = CONTINUE;
  private countA = 0;
  private countB = 0;

  constructor(
    readonly stream: GlrStream,
    readonly tolerance: number,
    readonly upper: number,
    readonly lower: number,
    readonly minimumPerGroup = 1,
  ) {
    stream.reset(tolerance);
  }

  /** The signed GLR after the last add() (0 while undefined). */
  get statistic(): number {
    return this.stream.statistic;
  }

  reset(): void {
    this.stream.reset(this.tolerance);
    this.countA = 0;
    this.countB = 0;
    this.verdict = CONTINUE;
  }

  add(group: number, value: number): void {
    if (group === 0) this.countA++;
    else this.countB++;
    this.stream.add(group, value);
    const statistic = this.stream.statistic;
    if (statistic >= this.upper || statistic <= this.lower) {
      const minimum = this.minimumPerGroup;
      if (this.stream.ready && this.countA >= minimum && this.countB >= minimum) {
        this.verdict = statistic >= this.upper ? REJECT : ACCEPT;
      }
    }
  }
}

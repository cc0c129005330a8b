import { countGapDecision } from './count-gap-comparison.js';
import { fixedSampleDecision } from './fixed-sample-decision.js';
import type { GlrStream } from './glr-stream.js';
import { ACCEPT, CONTINUE, REJECT, type SequentialTest } from './sequential-test.js';

/**
 * What a GLR test knows of the finite pool it reads, to decide exactly once it has read
 * every row: the rows of each group, and whether the values are 0/1 decisions (the gap of
 * counts compared exactly, countGapDecision) or real scores or logits (the gap of means in
 * floating point, fixedSampleDecision).
 */
export interface ExhaustionRule {
  readonly countA: number;
  readonly countB: number;
  readonly values: 'counts' | 'means';
}

/** The message of a statistic that is not a number: an error, never an inconclusive audit. */
export const NAN_STATISTIC =
  'GLR test: the statistic is NaN (values too large to square? pools refuse |value| above 1e100 when read)';

/**
 * The sequential GLR test of paper A section 3.5 with given stopping thresholds: reject
 * once the signed statistic is >= upper, accept once it is <= lower, but only once the
 * statistic is defined (stream.ready) and each group has at least minimumPerGroup
 * observations (paper A's start rule is 1). With Wald's thresholds (sequentialThresholds)
 * and no exhaustion rule it is paper A's test, exactly the rule of runSequentialAudit
 * (inconclusive when the pool runs out first, section 3.5). With an exhaustion rule, once
 * every row of both groups has been read without a decision the gap is known, and the
 * test decides it exactly: reject iff |gap| > tolerance (a gap of exactly the tolerance
 * is compliant). That implication is deterministic, so it adds no error: a compliant
 * pool read to its end is accepted, a violating one rejected. The calibrated GLR uses it.
 * Kernel: no validation (upper > lower, minimumPerGroup >= 1, the rule's counts are the
 * pool's). Throws Error(NAN_STATISTIC) when the statistic is NaN. O(1) per add beyond the stream's own update.
 * @param stream the GLR's running statistic (BernoulliGlrStream or GaussianGlrStream)
 * @param tolerance δ or τ
 * @param upper reject once the statistic reaches it
 * @param lower accept once the statistic falls to it
 * @param minimumPerGroup observations each group needs before the test may decide
 * @param exhaustion the rule deciding a pool read to its end exactly, or null for paper A's
 * @example
 * const { upper, lower } = sequentialThresholds(0.05, 0.2);
 * const test = new GlrThresholdTest(new BernoulliGlrStream(), 0.05, upper, lower, 1);
 * test.add(0, 1); // group a, decision 1; test.verdict is REJECT, ACCEPT or CONTINUE
 */
export class GlrThresholdTest implements SequentialTest {
  verdict = CONTINUE;
  private countA = 0;
  private countB = 0;
  private sumA = 0;
  private sumB = 0;

  constructor(
    readonly stream: GlrStream,
    readonly tolerance: number,
    readonly upper: number,
    readonly lower: number,
    readonly minimumPerGroup = 1,
    readonly exhaustion: ExhaustionRule | null = null,
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
    this.sumA = 0;
    this.sumB = 0;
    this.verdict = CONTINUE;
  }

  add(group: number, value: number): void {
    if (group === 0) {
      this.countA++;
      this.sumA += value;
    } else {
      this.countB++;
      this.sumB += value;
    }
    this.stream.add(group, value);
    const statistic = this.stream.statistic;
    if (Number.isNaN(statistic)) throw new Error(NAN_STATISTIC);
    if (statistic >= this.upper || statistic <= this.lower) {
      const minimum = this.minimumPerGroup;
      if (this.stream.ready && this.countA >= minimum && this.countB >= minimum) {
        this.verdict = statistic >= this.upper ? REJECT : ACCEPT;
        return;
      }
    }
    const rule = this.exhaustion;
    if (rule !== null && this.countA === rule.countA && this.countB === rule.countB) this.decideExhausted(rule);
  }

  /** The pool is read to its end: the gap is known, decide it exactly. */
  private decideExhausted(rule: ExhaustionRule): void {
    const decision =
      rule.values === 'counts'
        ? countGapDecision(this.countA, this.sumA, this.countB, this.sumB, this.tolerance)
        : fixedSampleDecision(this.sumB / this.countB - this.sumA / this.countA, this.tolerance);
    this.verdict = decision === 'reject' ? REJECT : decision === 'accept' ? ACCEPT : CONTINUE;
  }
}

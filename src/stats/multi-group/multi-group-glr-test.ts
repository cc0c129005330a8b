import { compareCountDifference, decimalFraction } from '../count-gap-comparison.js';
import { NAN_STATISTIC } from '../glr-threshold-test.js';
import { ACCEPT, CONTINUE, REJECT, type SequentialTest } from '../sequential-test.js';
import { windowExcess } from './compliance-window.js';
import type { MultiGroupGlrStream } from './multi-group-glr-stream.js';

/**
 * What a K-group GLR test knows of the finite pool, to decide exactly once every row is
 * read: the rows of each group, and whether values are 0/1 decisions (compared exactly on
 * counts) or real scores or logits (compared in floating point).
 */
export interface MultiGroupExhaustion {
  readonly groupSizes: readonly number[];
  readonly values: 'counts' | 'means';
}

/**
 * exhaustedDecision(sums, groupSizes, values, scale, shift, bound) decides a pool read to
 * its end: REJECT iff the groups' means violate the window (a gap of exactly the tolerance,
 * or a ratio of exactly the bound, is compliant). Counts: the lowest and highest rate are
 * found by cross-multiplication and compared exactly, the bound taken as the decimal it
 * prints as (compareCountDifference; for the ratio, integers in BigInt). O(K).
 */
export function exhaustedDecision(
  sums: Float64Array,
  groupSizes: readonly number[],
  values: 'counts' | 'means',
  scale: number,
  shift: number,
  bound: number,
): number {
  let low = 0;
  let high = 0;
  for (let g = 1; g < groupSizes.length; g++) {
    // rate g < rate low  <=>  s_g N_low < s_low N_g (exact for counts below 2^26 rows)
    if (sums[g] * groupSizes[low] < sums[low] * groupSizes[g]) low = g;
    if (sums[g] * groupSizes[high] > sums[high] * groupSizes[g]) high = g;
  }
  if (values === 'means') {
    const excess = windowExcess(sums[low] / groupSizes[low], sums[high] / groupSizes[high], scale, shift);
    return excess > 0 ? REJECT : ACCEPT;
  }
  if (scale === 1) {
    return compareCountDifference(groupSizes[low], sums[low], groupSizes[high], sums[high], bound) > 0
      ? REJECT
      : ACCEPT;
  }
  // Ratio rho = p/q: violation iff s_low N_high q < p s_high N_low.
  const { numerator, denominator } = decimalFraction(bound);
  const left = BigInt(sums[low]) * BigInt(groupSizes[high]) * denominator;
  const right = numerator * BigInt(sums[high]) * BigInt(groupSizes[low]);
  return left < right ? REJECT : ACCEPT;
}

/**
 * The K-group sequential GLR test with given thresholds: reject once the signed K-group
 * statistic is >= upper, accept once it is <= lower, once it is defined and every group has
 * minimumPerGroup observations. With Wald's thresholds (waldThresholds) and no exhaustion
 * rule it is paper A's rule applied to the K-group statistic: no error guarantee (the
 * statistic is not a likelihood ratio of two simple hypotheses). With calibrated thresholds
 * (src/audit/calibration/multi-group-calibration.ts) and the exhaustion rule it is the
 * K-group calibrated-glr. O(1) per add beyond the stream's update. Throws
 * Error(NAN_STATISTIC) on a NaN statistic. Kernel: no validation.
 * @param stream the K-group statistic
 * @param upper reject once the statistic reaches it
 * @param lower accept once it falls to it
 * @param minimumPerGroup observations every group needs before a decision
 * @param exhaustion the rule deciding a pool read to its end, or null for paper A's
 * @param bound δ or ρ (for the exhaustion rule's exact comparison)
 * @example
 * const test = new MultiGroupGlrTest(new MultiGroupGlrStream(3, 'bernoulli', 1, 0.05), 2.77, -1.56, 1, null, 0.05);
 */
export class MultiGroupGlrTest implements SequentialTest {
  verdict = CONTINUE;
  private readonly sums: Float64Array;
  private seen = 0;
  private readonly poolSize: number;

  constructor(
    readonly stream: MultiGroupGlrStream,
    readonly upper: number,
    readonly lower: number,
    readonly minimumPerGroup: number,
    readonly exhaustion: MultiGroupExhaustion | null,
    readonly bound: number,
  ) {
    this.sums = new Float64Array(stream.groupCount);
    this.poolSize = exhaustion === null ? -1 : exhaustion.groupSizes.reduce((sum, size) => sum + size, 0);
  }

  get statistic(): number {
    return this.stream.statistic;
  }

  reset(): void {
    this.stream.reset();
    this.sums.fill(0);
    this.seen = 0;
    this.verdict = CONTINUE;
  }

  add(group: number, value: number): void {
    this.sums[group] += value;
    this.seen++;
    const stream = this.stream;
    stream.add(group, value);
    const statistic = stream.statistic;
    if (Number.isNaN(statistic)) throw new Error(NAN_STATISTIC);
    if ((statistic >= this.upper || statistic <= this.lower) && stream.ready && this.enoughPerGroup()) {
      this.verdict = statistic >= this.upper ? REJECT : ACCEPT;
      return;
    }
    const rule = this.exhaustion;
    if (rule !== null && this.seen === this.poolSize) {
      this.verdict = exhaustedDecision(this.sums, rule.groupSizes, rule.values, stream.scale, stream.shift, this.bound);
    }
  }

  private enoughPerGroup(): boolean {
    const minimum = this.minimumPerGroup;
    if (minimum <= 1) return true;
    const counts = this.stream.groupCounts;
    for (let g = 0; g < counts.length; g++) if (counts[g] < minimum) return false;
    return true;
  }
}

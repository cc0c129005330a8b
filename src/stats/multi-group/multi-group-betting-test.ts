import { ACCEPT, CONTINUE, REJECT, type SequentialTest } from '../sequential-test.js';
import { type BettingUnits, TwoSampleBettingTest } from '../two-sample-betting-test.js';

/** The settings of a MultiGroupBettingTest (a kernel: the caller validates them). */
export interface MultiGroupBettingSettings {
  /** Rows of each group in the audited pool (K >= 2 entries, each >= 1). */
  readonly groupSizes: readonly number[];
  /** H0: max_g mean_g - min_g mean_g <= tolerance, in (0, 1). */
  readonly tolerance: number;
  /** Bound on P(reject) under H0, at any stopping time. */
  readonly alpha: number;
  /** Bound on P(accept) when max - min >= tolerance, at any stopping time. */
  readonly beta: number;
  readonly units: BettingUnits;
  /** Values are 0/1 decisions (exact comparisons on counts). */
  readonly integerValues: boolean;
  readonly shrinkage?: number;
  readonly betCap?: number;
}

/**
 * The anytime-valid K-group test of H0: max_g mu_g - min_g mu_g <= tolerance for values in
 * [0, 1] of a finite pool queried in uniformly random order, built from the K(K - 1)/2
 * pairwise betting tests (two-sample-betting-test.ts), each holding the two one-sided
 * e-processes of its pair:
 * - reject when the average of all K(K - 1) one-sided e-processes (every ordered pair's
 *   "mu_j - mu_i <= tolerance") reaches 1/alpha. Under H0 every one-sided null holds; each
 *   e-process is bounded by its wealth at the true means, a nonnegative supermartingale with
 *   respect to the one filtration of all draws (the bets of a unit are fixed by earlier draws,
 *   and each draw's factor has conditional mean <= 1 given everything drawn before, because
 *   the groups' orders are uniform and independent of which group is queried when), so
 *   their average is one too and Ville's inequality gives P(reject) <= alpha at any stopping
 *   time. It is never less powerful than Bonferroni over the pairs (the average is at least
 *   the largest over K(K - 1));
 * - accept once every pair's test has accepted (each of its two violation nulls "mu_j - mu_i
 *   >= tolerance" reached 1/beta): if max - min >= tolerance some ordered pair's violation
 *   null is true, and the probability that its e-process ever reaches 1/beta is <= beta, so
 *   P(accept) <= beta with no multiplicity correction (intersection-union).
 * See docs/error-control.md, "K groups". O(K) pair updates per add (each O(1) amortised),
 * plus an O(K^2) sum of cached numbers when a pair's evidence grows; no allocation after
 * construction (each pair keeps its own buffers: O(K N) memory).
 * @param settings group sizes, tolerance, alpha, beta and the betting units
 * @example
 * const test = new MultiGroupBettingTest({ groupSizes: [600, 300, 100], tolerance: 0.05, alpha: 0.05, beta: 0.2, units:
 * 'proportional', integerValues: true });
 * test.add(2, 1);
 */
export class MultiGroupBettingTest implements SequentialTest {
  verdict = CONTINUE;
  /** pairs[i * K + j] for i < j: the test of groups i (its a) and j (its b). */
  private readonly pairs: TwoSampleBettingTest[];
  private readonly accepted: Uint8Array;
  /** Each pair's sum of its two one-sided e-values against H0 (capped, see add). */
  private readonly evidence: Float64Array;
  private acceptedPairs = 0;
  private readonly pairCount: number;
  private readonly rejectLevel: number;

  constructor(readonly settings: MultiGroupBettingSettings) {
    const k = settings.groupSizes.length;
    this.pairCount = (k * (k - 1)) / 2;
    this.pairs = new Array(k * k);
    for (let i = 0; i < k; i++) {
      for (let j = i + 1; j < k; j++) {
        this.pairs[i * k + j] = new TwoSampleBettingTest({
          countA: settings.groupSizes[i],
          countB: settings.groupSizes[j],
          tolerance: settings.tolerance,
          // The pair's own rejection is not used; its verdict only reports its acceptance.
          alpha: Number.MIN_VALUE,
          beta: settings.beta,
          units: settings.units,
          integerValues: settings.integerValues,
          shrinkage: settings.shrinkage,
          betCap: settings.betCap,
        });
      }
    }
    this.accepted = new Uint8Array(k * k);
    this.evidence = new Float64Array(k * k);
    this.rejectLevel = (2 * this.pairCount) / settings.alpha;
    this.reset();
  }

  /** log of the average one-sided e-value against H0 after the last add(). */
  get logEvidence(): number {
    let sum = 0;
    const k = this.settings.groupSizes.length;
    for (let i = 0; i < k; i++) for (let j = i + 1; j < k; j++) sum += this.evidence[i * k + j];
    return Math.log(sum / (2 * this.pairCount));
  }

  reset(): void {
    const k = this.settings.groupSizes.length;
    for (let i = 0; i < k; i++) for (let j = i + 1; j < k; j++) this.pairs[i * k + j].reset();
    this.accepted.fill(0);
    this.evidence.fill(0);
    for (let i = 0; i < k; i++) for (let j = i + 1; j < k; j++) this.evidence[i * k + j] = 2;
    this.acceptedPairs = 0;
    this.verdict = CONTINUE;
  }

  add(group: number, value: number): void {
    const k = this.settings.groupSizes.length;
    let grew = false;
    for (let other = 0; other < k; other++) {
      if (other === group) continue;
      const i = Math.min(group, other);
      const j = Math.max(group, other);
      const index = i * k + j;
      const pair = this.pairs[index];
      pair.add(group === i ? 0 : 1, value);
      // e-values above the rejection level are capped there: the sum still crosses it exactly when it should.
      const e = Math.min(Math.exp(pair.logEvidence[0]) + Math.exp(pair.logEvidence[1]), 2 * this.rejectLevel);
      if (e > this.evidence[index]) grew = true;
      this.evidence[index] = e;
      if (this.accepted[index] === 0 && pair.verdict === ACCEPT) {
        this.accepted[index] = 1;
        this.acceptedPairs++;
      }
    }
    if (grew) {
      let sum = 0;
      for (let i = 0; i < k; i++) for (let j = i + 1; j < k; j++) sum += this.evidence[i * k + j];
      if (sum >= this.rejectLevel) {
        this.verdict = REJECT;
        return;
      }
    }
    if (this.acceptedPairs === this.pairCount) this.verdict = ACCEPT;
  }
}

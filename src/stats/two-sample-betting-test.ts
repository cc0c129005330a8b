import { compareCountDifference } from './count-gap-comparison.js';
import { empiricalBernsteinPenalty } from './empirical-bernstein-penalty.js';
import { ACCEPT, CONTINUE, REJECT, type SequentialTest } from './sequential-test.js';

/**
 * How the betting test groups draws into betting units: one unit holds draws of both
 * groups, and its bets are balanced between them (see TwoSampleBettingTest).
 * - 'proportional': unit k holds the draws of each group up to ceil(k N_g / min(N_a, N_b)),
 *   so units follow the pool's composition: right for a uniformly random query order.
 * - 'alternating': one draw of each group per unit (then the rest of the larger group one
 *   by one): right for the balanced query order.
 */
export type BettingUnits = 'proportional' | 'alternating';

/** The settings of a TwoSampleBettingTest (a kernel: the caller validates them). */
export interface TwoSampleBettingSettings {
  /** Rows of group a (N_a) and group b (N_b) in the audited pool: each >= 1. */
  readonly countA: number;
  readonly countB: number;
  /** H0: |mean_b - mean_a| <= tolerance, in (0, 1). */
  readonly tolerance: number;
  /** Bound on P(reject) under H0 (any time, any stopping rule). */
  readonly alpha: number;
  /** Bound on P(accept) when |gap| >= tolerance. */
  readonly beta: number;
  readonly units: BettingUnits;
  /** Values are 0/1 (decisions): the deterministic comparisons are then exact on counts. */
  readonly integerValues: boolean;
  /** Prior weight, in draws, that shrinks the estimated edge toward 0 (default 100). */
  readonly shrinkage?: number;
  /** Largest bet times range (lambda b), < 1 (default 0.5). */
  readonly betCap?: number;
}

const H0_PLUS = 0;
const H0_MINUS = 1;
const H1_PLUS = 2;
const H1_MINUS = 3;
/** The group each null is bet "up" on (its draws are bet to exceed their null mean). */
const UP_GROUP = [1, 0, 0, 1];
/** Each null is mean_up - mean_down <= kappa * tolerance. */
const KAPPA_SIGN = [1, 1, -1, -1];

/**
 * The anytime-valid betting test of the tolerance null for two group means of a finite
 * pool queried without replacement: reject H0: |mu_b - mu_a| <= tolerance (violation) or
 * accept it (compliance), with
 *   P(reject) <= alpha whenever |gap| <= tolerance, and
 *   P(accept) <= beta whenever |gap| >= tolerance,
 * at any data-dependent stopping time (so with any budget and under continuous
 * monitoring), for values in [0, 1] (decisions or scores), when each group's rows come in
 * uniformly random order and the groups' orders are independent (random or balanced query
 * order). At |gap| = tolerance both bounds hold.
 *
 * How (testing by betting; Waudby-Smith & Ramdas 2024 JRSS-B, Chugg et al. 2023 NeurIPS
 * for the two-group setting, with the without-replacement means of Waudby-Smith & Ramdas
 * 2020): H0 is the intersection of H0+: mu_b - mu_a <= tol and H0-: mu_a - mu_b <= tol;
 * "violation" H1 = {|gap| >= tol} is the union of H1+: mu_b - mu_a >= tol and H1-. Each
 * one-sided null "mu_U - mu_D <= kappa" gets a wealth process that bets draws of group U up
 * and draws of group D down against their without-replacement null means
 * m_i(mu) = (N mu - S_{i-1}) / (N - i + 1), each factor an empirical-Bernstein lower bound
 * exp(lambda (X - m_i) - psi_b(lambda) (X - muHat)^2) of the bet 1 + lambda (X - m_i)
 * (empiricalBernsteinPenalty), so the log-wealth is
 *   P_U - P_D - V - Q_U mu_U + Q_D mu_D
 * (P = sum lambda (X + S_{i-1}/(N - i + 1)), Q = sum lambda N/(N - i + 1)): linear in the
 * unknown means. Draws are grouped into units and each unit's bets are sized so that Q_U
 * and Q_D grow by the same amount: then the wealth on the null's boundary mu_U = mu_D +
 * kappa does not depend on the nuisance mean mu_D, and its infimum over every pair of means
 * that fits the null and the draws so far (each mean within [S/N, (S + N - n)/N]) is a
 * minimum over at most three breakpoints. That infimum is at most the wealth at the true
 * means, a nonnegative supermartingale in unit time (bets are fixed from earlier units), so
 * Ville's inequality bounds its crossing probability. Reject when the average of the H0+
 * and H0- evidence reaches 1/alpha; accept once H1+ and H1- have each reached 1/beta.
 * Bets: Kelly for the estimated edge (mean gap minus kappa, shrunk by n / (n + shrinkage)),
 * variance from the predictable plug-in of WSR 2024, capped at lambda b <= betCap. When the
 * draws leave no pair of means in a null (e.g. both groups exhausted with |gap| > tol) its
 * evidence is infinite: exhausting the pool decides exactly, except at |gap| = tol exactly
 * (compared on counts for decisions, so 0.40 - 0.35 is not above 0.05).
 *
 * O(1) amortised per add (about two log1p per draw), no allocation after construction
 * (O(N_a + N_b) buffers). Kernel: no validation.
 * @param settings the groups' sizes, the tolerance, alpha, beta and how draws are paired
 * @example
 * const test = new TwoSampleBettingTest({ countA: 600, countB: 400, tolerance: 0.05, alpha: 0.05, beta: 0.2, units:
 * 'proportional', integerValues: true });
 * test.add(1, 1);
 */
export class TwoSampleBettingTest implements SequentialTest {
  verdict = CONTINUE;
  /** Draws seen per group (all of them) and their sums. */
  private seenA = 0;
  private seenB = 0;
  private seenSumA = 0;
  private seenSumB = 0;
  /** Draws folded into betting units per group, their sums, plug-in means and squares. */
  private usedA = 0;
  private usedB = 0;
  private usedSumA = 0;
  private usedSumB = 0;
  private meanA = 0.5;
  private meanB = 0.5;
  private squaresA = 0.25;
  private squaresB = 0.25;
  private unit = 0;
  private targetA = 0;
  private targetB = 0;
  private rejectedPlus = false;
  private rejectedMinus = false;
  private readonly valuesA: Float64Array;
  private readonly valuesB: Float64Array;
  /** Per null: P_a, P_b, Q_a, Q_b, V and the unit's bet weight. */
  private readonly sumsPA = new Float64Array(4);
  private readonly sumsPB = new Float64Array(4);
  private readonly sumsQA = new Float64Array(4);
  private readonly sumsQB = new Float64Array(4);
  private readonly penalty = new Float64Array(4);
  private readonly weight = new Float64Array(4);
  /** log of the evidence against each null after the last add(). */
  readonly logEvidence = new Float64Array(4);
  private readonly logRejectLevel: number;
  private readonly logAcceptLevel: number;
  private readonly shrinkage: number;
  private readonly betCap: number;
  private readonly smaller: number;

  constructor(readonly settings: TwoSampleBettingSettings) {
    this.valuesA = new Float64Array(settings.countA);
    this.valuesB = new Float64Array(settings.countB);
    this.logRejectLevel = Math.log(1 / settings.alpha);
    this.logAcceptLevel = Math.log(1 / settings.beta);
    this.shrinkage = settings.shrinkage ?? 100;
    this.betCap = settings.betCap ?? 0.5;
    this.smaller = Math.min(settings.countA, settings.countB);
    this.reset();
  }

  /** Draws folded into betting units so far (the rest wait for their unit). */
  get usedDraws(): number {
    return this.usedA + this.usedB;
  }

  reset(): void {
    this.verdict = CONTINUE;
    this.seenA = this.seenB = 0;
    this.seenSumA = this.seenSumB = 0;
    this.usedA = this.usedB = 0;
    this.usedSumA = this.usedSumB = 0;
    this.meanA = this.meanB = 0.5;
    this.squaresA = this.squaresB = 0.25;
    this.unit = 0;
    this.rejectedPlus = this.rejectedMinus = false;
    this.sumsPA.fill(0);
    this.sumsPB.fill(0);
    this.sumsQA.fill(0);
    this.sumsQB.fill(0);
    this.penalty.fill(0);
    this.logEvidence.fill(0);
    this.setTargets();
  }

  /** The cumulative draws per group that unit `unit + 1` needs. */
  private setTargets(): void {
    const next = this.unit + 1;
    const { countA, countB } = this.settings;
    if (this.settings.units === 'alternating') {
      this.targetA = Math.min(next, countA);
      this.targetB = Math.min(next, countB);
    } else {
      this.targetA = Math.min(countA, Math.ceil((next * countA) / this.smaller));
      this.targetB = Math.min(countB, Math.ceil((next * countB) / this.smaller));
    }
  }

  add(group: number, value: number): void {
    if (group === 0) {
      this.valuesA[this.seenA++] = value;
      this.seenSumA += value;
    } else {
      this.valuesB[this.seenB++] = value;
      this.seenSumB += value;
    }
    while (
      this.seenA >= this.targetA &&
      this.seenB >= this.targetB &&
      (this.targetA > this.usedA || this.targetB > this.usedB)
    ) {
      this.foldUnit();
    }
    this.decide();
  }

  /** Sizes the bets of the next unit from earlier units only, then folds its draws in. */
  private foldUnit(): void {
    const { countA, countB, tolerance } = this.settings;
    const drawsA = this.targetA - this.usedA;
    const drawsB = this.targetB - this.usedB;
    const meanA = this.meanA;
    const meanB = this.meanB;
    const varianceA = this.squaresA / (this.usedA + 1);
    const varianceB = this.squaresB / (this.usedB + 1);
    const firstWeightA = countA / (countA - this.usedA);
    const firstWeightB = countB / (countB - this.usedB);
    let spread = 0;
    if (drawsA > 0) spread += varianceA / (drawsA * firstWeightA * firstWeightA);
    if (drawsB > 0) spread += varianceB / (drawsB * firstWeightB * firstWeightB);
    const used = this.usedA + this.usedB;
    const shrink = used / (used + this.shrinkage);
    const gap = meanB - meanA;
    const cap = this.betCap;
    for (let k = 0; k < 4; k++) {
      const up = UP_GROUP[k];
      const edge = ((up === 1 ? gap : -gap) - KAPPA_SIGN[k] * tolerance) * shrink;
      if (!(edge > 0)) {
        this.weight[k] = 0;
        continue;
      }
      let w = edge / spread;
      if (drawsA > 0) {
        const range = up === 0 ? meanA : 1 - meanA;
        w = Math.min(w, (cap * drawsA * firstWeightA) / range);
      }
      if (drawsB > 0) {
        const range = up === 1 ? meanB : 1 - meanB;
        w = Math.min(w, (cap * drawsB * firstWeightB) / range);
      }
      this.weight[k] = w;
    }
    for (let j = 0; j < drawsA; j++) this.foldDraw(0, this.valuesA[this.usedA], drawsA, meanA);
    for (let j = 0; j < drawsB; j++) this.foldDraw(1, this.valuesB[this.usedB], drawsB, meanB);
    this.unit++;
    this.setTargets();
  }

  /** One draw of a unit: every null with a bet this unit gains its factor. */
  private foldDraw(group: number, value: number, draws: number, centre: number): void {
    const size = group === 0 ? this.settings.countA : this.settings.countB;
    const index = group === 0 ? this.usedA : this.usedB;
    const previousSum = group === 0 ? this.usedSumA : this.usedSumB;
    const remaining = size - index;
    const drawWeight = size / remaining;
    const shifted = value + previousSum / remaining;
    const deviation = value - centre;
    const squared = deviation * deviation;
    for (let k = 0; k < 4; k++) {
      const w = this.weight[k];
      if (w === 0) continue;
      const share = w / draws;
      const bet = share / drawWeight;
      const range = UP_GROUP[k] === group ? centre : 1 - centre;
      if (group === 0) {
        this.sumsPA[k] += bet * shifted;
        this.sumsQA[k] += share;
      } else {
        this.sumsPB[k] += bet * shifted;
        this.sumsQB[k] += share;
      }
      this.penalty[k] += empiricalBernsteinPenalty(bet, range) * squared;
    }
    const sum = previousSum + value;
    if (group === 0) {
      const step = value - this.meanA;
      this.squaresA += step * step;
      this.usedA++;
      this.usedSumA = sum;
      this.meanA = (0.5 + sum) / (this.usedA + 1);
    } else {
      const step = value - this.meanB;
      this.squaresB += step * step;
      this.usedB++;
      this.usedSumB = sum;
      this.meanB = (0.5 + sum) / (this.usedB + 1);
    }
  }

  /**
   * Whether the draws so far leave no pair of means with mean_up - mean_down <= kappa: the
   * smallest possible mean of `up` exceeds the largest possible mean of `down` by more than
   * kappa. Exact on counts for 0/1 values; else in floating point with a 1e-12 margin.
   */
  private impossible(up: number, kappa: number): boolean {
    const { countA, countB } = this.settings;
    const upCount = up === 0 ? countA : countB;
    const downCount = up === 0 ? countB : countA;
    const upSum = up === 0 ? this.seenSumA : this.seenSumB;
    const downHighest = up === 0 ? this.seenSumB + countB - this.seenB : this.seenSumA + countA - this.seenA;
    const difference = upSum / upCount - downHighest / downCount - kappa;
    if (difference < -1e-9) return false;
    if (this.settings.integerValues) return compareCountDifference(downCount, downHighest, upCount, upSum, kappa) > 0;
    return difference > 1e-12;
  }

  /** log of the infimum of null k's wealth over the means that fit it and the draws. */
  private evidence(k: number): number {
    const up = UP_GROUP[k];
    const kappa = KAPPA_SIGN[k] * this.settings.tolerance;
    if (this.impossible(up, kappa)) return Number.POSITIVE_INFINITY;
    const { countA, countB } = this.settings;
    const lowA = this.seenSumA / countA;
    const highA = (this.seenSumA + countA - this.seenA) / countA;
    const lowB = this.seenSumB / countB;
    const highB = (this.seenSumB + countB - this.seenB) / countB;
    const lowUp = up === 0 ? lowA : lowB;
    const highUp = up === 0 ? highA : highB;
    const lowDown = up === 0 ? lowB : lowA;
    const highDown = up === 0 ? highB : highA;
    const sumsUp = up === 0 ? this.sumsPA[k] : this.sumsPB[k];
    const sumsDown = up === 0 ? this.sumsPB[k] : this.sumsPA[k];
    const weightUp = up === 0 ? this.sumsQA[k] : this.sumsQB[k];
    const weightDown = up === 0 ? this.sumsQB[k] : this.sumsQA[k];
    const base = sumsUp - sumsDown - this.penalty[k];
    // The down group's mean m ranges over [from, to]; the up group's is min(m + kappa, highUp).
    const to = highDown;
    const from = Math.min(Math.max(lowDown, lowUp - kappa), to);
    let least = base - weightUp * Math.min(from + kappa, highUp) + weightDown * from;
    const atEnd = base - weightUp * Math.min(to + kappa, highUp) + weightDown * to;
    if (atEnd < least) least = atEnd;
    const corner = highUp - kappa;
    if (corner > from && corner < to) {
      const atCorner = base - weightUp * highUp + weightDown * corner;
      if (atCorner < least) least = atCorner;
    }
    return least;
  }

  private decide(): void {
    const evidence = this.logEvidence;
    for (let k = 0; k < 4; k++) evidence[k] = this.evidence(k);
    const plus = evidence[H0_PLUS];
    const minus = evidence[H0_MINUS];
    const most = Math.max(plus, minus);
    if (most >= this.logRejectLevel) {
      // The average of the two e-values: at least half the larger one.
      const average =
        most === Number.POSITIVE_INFINITY
          ? most
          : most + Math.log(0.5 * (Math.exp(plus - most) + Math.exp(minus - most)));
      if (average >= this.logRejectLevel) {
        this.verdict = REJECT;
        return;
      }
    }
    if (evidence[H1_PLUS] >= this.logAcceptLevel) this.rejectedPlus = true;
    if (evidence[H1_MINUS] >= this.logAcceptLevel) this.rejectedMinus = true;
    if (this.rejectedPlus && this.rejectedMinus) this.verdict = ACCEPT;
  }
}

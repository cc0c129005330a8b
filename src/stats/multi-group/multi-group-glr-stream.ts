import { windowExcess } from './compliance-window.js';
import { bernoulliPairFaceDeficit, bernoulliWindowDeficit, bernoulliWindowStart } from './multi-group-bernoulli-glr.js';
import {
  gaussianGlrFromCost,
  gaussianPairFaceCost,
  gaussianWindowCost,
  gaussianWindowStart,
} from './multi-group-gaussian-glr.js';

/** Which likelihood a K-group GLR uses: Bernoulli (decision access) or the Gaussian proxy (score, logit). */
export type MultiGroupLikelihood = 'bernoulli' | 'gaussian';

/**
 * The signed K-group GLR (multi-group-bernoulli-glr.ts, multi-group-gaussian-glr.ts) kept up
 * to date one observation at a time. Per group a count and a positives count (Bernoulli) or
 * a running mean and sum of squared deviations (Welford; Gaussian). After each add: when
 * the estimates violate the window, the one-dimensional window problem from a warm start
 * (O(K) per Newton step, typically one or two steps); otherwise the least pair face cost,
 * from a K x K cache in which only the 2(K - 1) pairs of the group just observed are solved
 * again (plus an O(K^2) scan of cached numbers). `ready` once every group has an
 * observation (Gaussian: and the pooled residual sum of squares is positive). No allocation
 * after construction. Kernel: no validation (groupCount >= 2, group codes 0..K-1).
 * @example
 * const stream = new MultiGroupGlrStream(3, 'bernoulli', 1, 0.05);
 * stream.add(2, 1);
 */
export class MultiGroupGlrStream {
  statistic = 0;
  private readonly counts: Float64Array;
  /** Bernoulli: positives; Gaussian: running means. */
  private readonly locations: Float64Array;
  /** Gaussian: running sums of squared deviations per group. */
  private readonly squares: Float64Array;
  private readonly pairCosts: Float64Array;
  private readonly dirty: Uint8Array;
  private observedGroups = 0;
  private residual = 0;
  private total = 0;
  private start = -1;

  constructor(
    readonly groupCount: number,
    readonly likelihood: MultiGroupLikelihood,
    readonly scale: number,
    readonly shift: number,
  ) {
    this.counts = new Float64Array(groupCount);
    this.locations = new Float64Array(groupCount);
    this.squares = new Float64Array(groupCount);
    this.pairCosts = new Float64Array(groupCount * groupCount);
    this.dirty = new Uint8Array(groupCount);
    this.reset();
  }

  get ready(): boolean {
    return this.observedGroups === this.groupCount && (this.likelihood === 'bernoulli' || this.residual > 0);
  }

  /** Observations per group so far (a view: do not write). */
  get groupCounts(): Float64Array {
    return this.counts;
  }

  reset(): void {
    this.counts.fill(0);
    this.locations.fill(0);
    this.squares.fill(0);
    this.pairCosts.fill(0);
    this.dirty.fill(1);
    this.observedGroups = 0;
    this.residual = 0;
    this.total = 0;
    this.start = -1;
    this.statistic = 0;
  }

  add(group: number, value: number): void {
    const n = ++this.counts[group];
    if (n === 1) this.observedGroups++;
    this.total++;
    if (this.likelihood === 'bernoulli') this.locations[group] += value;
    else {
      const step = value - this.locations[group];
      this.locations[group] += step / n;
      const added = step * (value - this.locations[group]);
      this.squares[group] += added;
      this.residual += added;
    }
    this.dirty[group] = 1;
    if (!this.ready) return;
    this.statistic = this.likelihood === 'bernoulli' ? this.bernoulliStatistic() : this.gaussianStatistic();
  }

  /** The lowest and highest estimate, as [lowest, highest] in two fields (no allocation). */
  private lowest = 0;
  private highest = 0;
  private extremes(): void {
    const bernoulli = this.likelihood === 'bernoulli';
    let lowest = Number.POSITIVE_INFINITY;
    let highest = Number.NEGATIVE_INFINITY;
    for (let g = 0; g < this.groupCount; g++) {
      const estimate = bernoulli ? this.locations[g] / this.counts[g] : this.locations[g];
      if (estimate < lowest) lowest = estimate;
      if (estimate > highest) highest = estimate;
    }
    this.lowest = lowest;
    this.highest = highest;
  }

  private bernoulliStatistic(): number {
    this.extremes();
    const { counts, locations, groupCount, scale, shift } = this;
    if (windowExcess(this.lowest, this.highest, scale, shift) > 0) {
      this.start = bernoulliWindowStart(counts, locations, groupCount, scale, shift, this.start);
      return Math.max(0, bernoulliWindowDeficit(counts, locations, groupCount, scale, shift, this.start));
    }
    return Math.min(0, -this.leastPairCost());
  }

  private gaussianStatistic(): number {
    this.extremes();
    const { counts, locations, groupCount, scale, shift } = this;
    const excess = windowExcess(this.lowest, this.highest, scale, shift);
    if (excess === 0) return 0;
    if (excess > 0) {
      const start = gaussianWindowStart(counts, locations, groupCount, scale, shift);
      const cost = gaussianWindowCost(counts, locations, groupCount, scale, shift, start);
      return gaussianGlrFromCost(this.total, cost, this.residual, 1);
    }
    return gaussianGlrFromCost(this.total, this.leastPairCost(), this.residual, -1);
  }

  /** The cost of the face of ordered pair (i, j): i at the window's bottom, j above its top. */
  private pairCost(i: number, j: number): number {
    const { counts, locations, scale, shift } = this;
    return this.likelihood === 'bernoulli'
      ? bernoulliPairFaceDeficit(locations[i], counts[i], locations[j], counts[j], scale, shift)
      : gaussianPairFaceCost(counts[i], locations[i], counts[j], locations[j], scale, shift);
  }

  /** The least face cost over ordered pairs, solving again only the pairs of groups observed since. */
  private leastPairCost(): number {
    const k = this.groupCount;
    const costs = this.pairCosts;
    for (let g = 0; g < k; g++) {
      if (this.dirty[g] === 0) continue;
      for (let other = 0; other < k; other++) {
        if (other === g) continue;
        costs[g * k + other] = this.pairCost(g, other);
        costs[other * k + g] = this.pairCost(other, g);
      }
      this.dirty[g] = 0;
    }
    let least = Number.POSITIVE_INFINITY;
    for (let i = 0; i < k; i++) {
      for (let j = 0; j < k; j++) if (i !== j && costs[i * k + j] < least) least = costs[i * k + j];
    }
    return least;
  }
}

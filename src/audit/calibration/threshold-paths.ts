import type { GlrStream } from '../../stats/glr-stream.js';
import type { Random } from '../../util/random.js';
import type { BalancedOrder } from '../balanced-order.js';
import { restoreOrder, shufflePosition } from '../partial-shuffle.js';
import type { ShuffledQueryOrder } from '../query-order.js';

/**
 * The candidate thresholds of a calibration: upper_j = (j + 1) step for j < upperCount and
 * lower_k = -(k + 1) step for k < lowerCount (so the largest upper is upperCount step and the
 * lowest lower is -lowerCount step).
 */
export interface ThresholdGrid {
  readonly step: number;
  readonly upperCount: number;
  readonly lowerCount: number;
}

/** upperThreshold(grid, j): the j-th candidate upper threshold, (j + 1) step. */
export function upperThreshold(grid: ThresholdGrid, j: number): number {
  return (j + 1) * grid.step;
}

/** lowerThreshold(grid, k): the k-th candidate lower threshold, -(k + 1) step. */
export function lowerThreshold(grid: ThresholdGrid, k: number): number {
  return -(k + 1) * grid.step;
}

/**
 * Where tuning histograms must be exact: upper thresholds from index upperStart on and
 * lower thresholds from index lowerStart on (the decisive thresholds nearer 0 are left
 * out). Inside it a windowed record equals the full one: a path's rejection count at
 * (upper_j, lower_k) for j >= upperStart, k >= lowerStart, and likewise its acceptance
 * count. Outside it counts may be too small. The full grid is { upperStart: 0, lowerStart: 0 }.
 */
export interface TuningWindow {
  readonly upperStart: number;
  readonly lowerStart: number;
}

/** The whole grid: every threshold pair recorded exactly. */
export const FULL_WINDOW: TuningWindow = { upperStart: 0, lowerStart: 0 };

/** How the simulated audits run: the parts of an audit's settings that shape a GLR path. */
export interface PathSettings {
  readonly tolerance: number;
  /** B: at most min(B, pool size) queries. */
  readonly budget: number;
  /** The test starts once each group has this many observations (and the statistic is defined). */
  readonly minimumPerGroup: number;
  readonly order: ShuffledQueryOrder;
}

/**
 * What a batch of simulated GLR paths says about every threshold pair of a grid, as
 * histograms that add up across batches (so chunks can run on any thread and be merged):
 * - nullBins (when recorded) has lowerCount rows of upperCount + 1 bins: row k counts the
 *   paths by how many upper thresholds lie at or below M_k, the largest statistic seen
 *   before it first fell to lower_k. With thresholds (upper_j, lower_k) a path rejects
 *   exactly when M_k >= upper_j, i.e. when its bin in row k is > j.
 * - alternativeBins (when recorded) has upperCount rows of lowerCount + 1 bins: row j counts
 *   the paths by how many lower thresholds lie at or above m_j, the smallest statistic seen
 *   before it first rose to upper_j. A path accepts exactly when its bin in row j is > k.
 * Both are stored bin by bin (binIndex): most of a path's rows share one bin, so finish()
 * adds to consecutive entries.
 */
export interface ThresholdPathCounts {
  paths: number;
  readonly nullBins: Float64Array | null;
  readonly alternativeBins: Float64Array | null;
}

/** binIndex(rows, row, bin): where a histogram of `rows` rows keeps row `row`'s count in bin `bin`. */
export function binIndex(rows: number, row: number, bin: number): number {
  return bin * rows + row;
}

/** emptyPathCounts(grid, recordNull, recordAlternative) allocates zeroed histograms. */
export function emptyPathCounts(
  grid: ThresholdGrid,
  recordNull: boolean,
  recordAlternative: boolean,
): ThresholdPathCounts {
  return {
    paths: 0,
    nullBins: recordNull ? new Float64Array(grid.lowerCount * (grid.upperCount + 1)) : null,
    alternativeBins: recordAlternative ? new Float64Array(grid.upperCount * (grid.lowerCount + 1)) : null,
  };
}

/** mergePathCounts(into, from) adds from's histograms to into's. O(grid). */
export function mergePathCounts(into: ThresholdPathCounts, from: ThresholdPathCounts): void {
  into.paths += from.paths;
  if (into.nullBins !== null && from.nullBins !== null)
    for (let i = 0; i < into.nullBins.length; i++) into.nullBins[i] += from.nullBins[i];
  if (into.alternativeBins !== null && from.alternativeBins !== null) {
    for (let i = 0; i < into.alternativeBins.length; i++) into.alternativeBins[i] += from.alternativeBins[i];
  }
}

/**
 * Follows one path's statistic and records, per candidate threshold, the extremes the
 * calibration needs (see ThresholdPathCounts). O(1) per observation plus O(grid) per path.
 */
export class PathExtremes {
  private largest = Number.NEGATIVE_INFINITY;
  private smallest = Number.POSITIVE_INFINITY;
  private nextLower = 0;
  private nextUpper = 0;
  private readonly maxBefore: Float64Array;
  private readonly minBefore: Float64Array;
  private readonly lowestLower: number;
  private readonly highestUpper: number;

  constructor(
    readonly grid: ThresholdGrid,
    readonly recordNull: boolean,
    readonly recordAlternative: boolean,
    readonly window: TuningWindow = FULL_WINDOW,
  ) {
    this.maxBefore = new Float64Array(grid.lowerCount);
    this.minBefore = new Float64Array(grid.upperCount);
    this.lowestLower = lowerThreshold(grid, grid.lowerCount - 1);
    this.highestUpper = upperThreshold(grid, grid.upperCount - 1);
  }

  start(): void {
    this.largest = Number.NEGATIVE_INFINITY;
    this.smallest = Number.POSITIVE_INFINITY;
    this.nextLower = this.recordNull ? this.window.lowerStart : this.grid.lowerCount;
    this.nextUpper = this.recordAlternative ? this.window.upperStart : this.grid.upperCount;
  }

  /**
   * observe(statistic) folds in the statistic at a time the test is running; returns true
   * when nothing later can change what is recorded (the path may stop).
   */
  observe(statistic: number): boolean {
    const grid = this.grid;
    while (this.nextLower < grid.lowerCount && statistic <= lowerThreshold(grid, this.nextLower)) {
      this.maxBefore[this.nextLower++] = this.largest;
    }
    while (this.nextUpper < grid.upperCount && statistic >= upperThreshold(grid, this.nextUpper)) {
      this.minBefore[this.nextUpper++] = this.smallest;
    }
    if (statistic > this.largest) this.largest = statistic;
    if (statistic < this.smallest) this.smallest = statistic;
    const nullDone = this.nextLower === grid.lowerCount || this.largest >= this.highestUpper;
    const alternativeDone = this.nextUpper === grid.upperCount || this.smallest <= this.lowestLower;
    return nullDone && alternativeDone;
  }

  /**
   * reachAbove() is the smallest statistic that would change what is recorded on the way
   * up (the next candidate upper threshold above the largest statistic so far while the
   * null side is open, the next one not yet reached on the alternative side), +Infinity
   * when none can. A statistic below it changes no histogram bin: a simulation may skip
   * evaluating the statistic while it provably stays below it. O(1).
   */
  reachAbove(): number {
    const grid = this.grid;
    let above = Number.POSITIVE_INFINITY;
    if (this.nextLower < grid.lowerCount && this.largest < this.highestUpper)
      above = upperThreshold(grid, Math.max(upperBin(grid, this.largest), this.window.upperStart));
    if (this.nextUpper < grid.upperCount && this.smallest > this.lowestLower)
      above = Math.min(above, upperThreshold(grid, this.nextUpper));
    return above;
  }

  /** reachBelow() is reachAbove's mirror: the largest statistic that would change the record on the way down. */
  reachBelow(): number {
    const grid = this.grid;
    let below = Number.NEGATIVE_INFINITY;
    if (this.nextUpper < grid.upperCount && this.smallest > this.lowestLower)
      below = lowerThreshold(grid, Math.max(lowerBin(grid, this.smallest), this.window.lowerStart));
    if (this.nextLower < grid.lowerCount && this.largest < this.highestUpper)
      below = Math.max(below, lowerThreshold(grid, this.nextLower));
    return below;
  }

  /** finish(into) adds this path to the histograms. */
  finish(into: ThresholdPathCounts): void {
    const grid = this.grid;
    into.paths++;
    // Rows outside [window start, next threshold) all take the path's extreme: one bin, consecutive entries.
    if (this.recordNull && into.nullBins !== null) {
      const rows = grid.lowerCount;
      const start = this.window.lowerStart;
      const next = Math.max(this.nextLower, start);
      const shared = binIndex(rows, 0, upperBin(grid, this.largest));
      for (let k = 0; k < start; k++) into.nullBins[shared + k]++;
      for (let k = start; k < next; k++) into.nullBins[binIndex(rows, k, upperBin(grid, this.maxBefore[k]))]++;
      for (let k = next; k < rows; k++) into.nullBins[shared + k]++;
    }
    if (this.recordAlternative && into.alternativeBins !== null) {
      const rows = grid.upperCount;
      const start = this.window.upperStart;
      const next = Math.max(this.nextUpper, start);
      const shared = binIndex(rows, 0, lowerBin(grid, this.smallest));
      for (let j = 0; j < start; j++) into.alternativeBins[shared + j]++;
      for (let j = start; j < next; j++) into.alternativeBins[binIndex(rows, j, lowerBin(grid, this.minBefore[j]))]++;
      for (let j = next; j < rows; j++) into.alternativeBins[shared + j]++;
    }
  }
}

/** How many upper thresholds lie at or below value (0..upperCount), by the same products as upperThreshold. */
function upperBin(grid: ThresholdGrid, value: number): number {
  if (!(value >= grid.step)) return 0;
  let bin = Math.min(grid.upperCount, Math.floor(value / grid.step));
  while (bin < grid.upperCount && upperThreshold(grid, bin) <= value) bin++;
  while (bin > 0 && upperThreshold(grid, bin - 1) > value) bin--;
  return bin;
}

/** How many lower thresholds lie at or above value (0..lowerCount). */
function lowerBin(grid: ThresholdGrid, value: number): number {
  if (!(value <= -grid.step)) return 0;
  let bin = Math.min(grid.lowerCount, Math.floor(-value / grid.step));
  while (bin < grid.lowerCount && lowerThreshold(grid, bin) >= value) bin++;
  while (bin > 0 && lowerThreshold(grid, bin - 1) < value) bin--;
  return bin;
}

/** A decision-access pool given by its counts: rows and positive decisions per group. */
export interface CountCell {
  readonly countA: number;
  readonly positivesA: number;
  readonly countB: number;
  readonly positivesB: number;
}

/** A pool given row by row: each row's group (0/1) and observed value, plus shuffle scratch. */
export interface RowPool {
  readonly group: Uint8Array;
  readonly value: Float64Array;
  /** Scratch for random order: the identity permutation of the rows (restored after each path). */
  readonly order: Int32Array;
  readonly swaps: Int32Array;
}

/**
 * recordRowPaths(pool, stream, settings, balanced, extremes, random, paths, into) simulates
 * `paths` audits of a concrete pool (random order: a partial Fisher-Yates shuffle of the
 * rows; balanced order: `balanced`, which must be built from pool.group), runs the GLR
 * stream and records each path's extremes. O(paths x queries). Kernel: no validation.
 */
export function recordRowPaths(
  pool: RowPool,
  stream: GlrStream,
  settings: PathSettings,
  balanced: BalancedOrder | null,
  extremes: PathExtremes,
  random: Random,
  paths: number,
  into: ThresholdPathCounts,
): void {
  const size = pool.group.length;
  const cap = Math.min(settings.budget, size);
  const minimum = settings.minimumPerGroup;
  const { group, value, order, swaps } = pool;
  for (let path = 0; path < paths; path++) {
    stream.reset(settings.tolerance);
    extremes.start();
    let seenA = 0;
    let seenB = 0;
    let t = 0;
    while (t < cap) {
      const row = balanced !== null ? balanced.next(random) : shufflePosition(order, swaps, t, random);
      t++;
      const g = group[row];
      if (g === 0) seenA++;
      else seenB++;
      stream.add(g, value[row]);
      if (stream.ready && seenA >= minimum && seenB >= minimum && extremes.observe(stream.statistic)) break;
    }
    if (balanced !== null) balanced.restore();
    else restoreOrder(order, swaps, t);
    extremes.finish(into);
  }
}

import type { AuditDesign } from '../audit/audit-design.js';
import { decimalFraction } from '../stats/count-gap-comparison.js';
import { type AuditSetGroupLaw, auditSetGroupLaw } from './audit-set-group-law.js';
import type { CandidatePopulation } from './candidate-population.js';
import { fillHypergeometricWindow } from './hypergeometric-window.js';

/** The audit whose pass probability is computed: C's groups, |S|, how S is drawn, and ε. */
export interface ExactAuditSetting {
  /** C: group sizes and the metric's rows per group (its positives are ignored here). */
  population: CandidatePopulation;
  /** n = |S|. */
  auditSetSize: number;
  design: AuditDesign;
  /** ε, taken as the decimal it prints as (as `fairaudit audit` and `pir audit` compare it). */
  tolerance: number;
}

/** A probability computed from truncated sums, with a guaranteed enclosure. */
export interface BoundedProbability {
  /** The computed value. */
  value: number;
  /** value − error bound and value + error bound, clipped to [0, 1]. */
  lower: number;
  upper: number;
}

/** The three probabilities one pass over the law gives. */
export interface AuditOutcomeProbabilities {
  /** P(both groups have a metric row in S and |d_S| ≤ ε): the audit passes. */
  pass: BoundedProbability;
  /** P(both groups in S and d_S ≤ ε): increasing in P₀, decreasing in P₁. */
  gapAtMostTolerance: BoundedProbability;
  /** P(both groups in S and d_S ≥ −ε): decreasing in P₀, increasing in P₁. */
  gapAtLeastMinusTolerance: BoundedProbability;
}

/** Computes the audit's outcome probabilities for any positives (P₀', P₁') of C's metric rows. */
export interface PassProbabilityEvaluator {
  readonly setting: ExactAuditSetting;
  /** The tail bound used for every hypergeometric window. */
  readonly tailBound: number;
  /** outcomes(positives0, positives1): the three probabilities at (P₀', P₁'). */
  outcomes(positives0: number, positives1: number): AuditOutcomeProbabilities;
  /** How many (P₀', P₁') have been evaluated (cache hits included). */
  readonly evaluations: number;
}

/**
 * A generous allowance for floating-point rounding in one evaluation: every window is
 * normalised (relative error ≲ length·2⁻⁵³ ≈ 1e-13), prefix sums and the outer sum
 * add at most ~1e5 terms (≲ 1e-11). 1e-10 covers both with room to spare.
 */
const roundingAllowance = 1e-10;

/** How many per-positives window tables each side keeps (searches vary one coordinate at a time). */
const cacheCapacity = 32;

interface SideTable {
  /** Per distinct metric-row count: first value, length, offset into data/prefix. */
  first: Int32Array;
  length: Int32Array;
  offset: Int32Array;
  /** Total window length. */
  size: number;
  /** Prefix sums: prefix[offset[j] + j + i] = P(X < first + i) within window j. */
  prefix: Float64Array;
  dropped: Float64Array;
}

function bounded(value: number, error: number): BoundedProbability {
  return { value, lower: Math.max(0, value - error), upper: Math.min(1, value + error) };
}

/**
 * createPassProbabilityEvaluator(setting, tailBound = 1e-13) prepares the exact pass
 * probability of paper B's fixed-size audit (Eq. 1: pass iff |d_S| ≤ ε) when S is drawn
 * from C as `design` says and C's metric rows hold P₀', P₁' positives. Given the metric
 * rows (m₀, m₁) of each group in S (auditSetGroupLaw), the positives in S are independent,
 * xₐ ~ Hypergeometric(Eₐ, Pₐ', mₐ), and the audit passes iff m₀, m₁ ≥ 1 and
 * |x₁m₀ − x₀m₁| ≤ D(m₀, m₁) = ⌊p·m₀m₁/q⌋ with ε = p/q the decimal ε prints as: exactly
 * countGapExceedsTolerance's comparison, on integers. So
 * P(pass) = Σ P(m₀, m₁) Σ_x₀ P(x₀) · P(lo(x₀) ≤ x₁ ≤ hi(x₀)) with the inner term a
 * difference of x₁'s distribution function. A group absent from S is no pass (no
 * verdict without evidence). Every hypergeometric is cut where its tails are provably
 * small (hypergeometricWindow): the law of (m₀, m₁) at `tailBound`, the positives' laws
 * at tailBound / P(their mₐ) (at most 1e-4), so that each block drops at most `tailBound`
 * of the total; the enclosure [lower, upper] adds the mass actually dropped and a
 * rounding allowance of 1e-10. Set-up O(blocks); each
 * evaluation O(Σ over blocks of the x₀ window) — about 2·10⁵ steps at N = 13,500,
 * n = 6,750 — with the per-(side, positives) windows cached. Inputs are trusted
 * (validate with validateExactMinimalFlipsSetting).
 */
export function createPassProbabilityEvaluator(
  setting: ExactAuditSetting,
  tailBound = 1e-13,
): PassProbabilityEvaluator {
  return new ExactPassProbabilityEvaluator(setting, tailBound);
}

/** Distinct metric-row counts per side of the law's blocks, and each block's index into them. */
function distinctRowCounts(rowsOf: readonly [Int32Array, Int32Array], blocks: number) {
  const distinct = [new Map<number, number>(), new Map<number, number>()];
  const blockIndex: [Int32Array, Int32Array] = [new Int32Array(blocks), new Int32Array(blocks)];
  for (const side of [0, 1] as const) {
    for (let b = 0; b < blocks; b++) {
      const rows = rowsOf[side][b];
      let index = distinct[side].get(rows);
      if (index === undefined) {
        index = distinct[side].size;
        distinct[side].set(rows, index);
      }
      blockIndex[side][b] = index;
    }
  }
  const rowCounts = distinct.map((map) => Int32Array.from(map.keys())) as [Int32Array, Int32Array];
  return { blockIndex, rowCounts };
}

/** D(m₀, m₁) = ⌊p·m₀m₁/q⌋ of each block, exactly (BigInt), capped at m₀m₁ (ε ≥ 1 passes everything). */
function maxScaledGaps(law: AuditSetGroupLaw, tolerance: number): Float64Array {
  const fraction = decimalFraction(tolerance);
  const maxScaledGap = new Float64Array(law.weights.length);
  for (let b = 0; b < maxScaledGap.length; b++) {
    const product = law.metricRows0[b] * law.metricRows1[b];
    const scaled = (fraction.numerator * BigInt(product)) / fraction.denominator;
    maxScaledGap[b] = scaled > BigInt(product) ? product : Number(scaled);
  }
  return maxScaledGap;
}

/**
 * The tail each distinct count's windows are cut at: tailBound / (total weight of its
 * blocks), at most 1e-4: a block then drops at most tailBound·(its share) of mass per side,
 * and rare counts get short windows. The enclosure adds the mass actually dropped, so it
 * stays exact.
 */
function windowTails(
  law: AuditSetGroupLaw,
  rowCounts: readonly [Int32Array, Int32Array],
  blockIndex: readonly [Int32Array, Int32Array],
  tailBound: number,
): [Float64Array, Float64Array] {
  const windowTail: [Float64Array, Float64Array] = [
    new Float64Array(rowCounts[0].length),
    new Float64Array(rowCounts[1].length),
  ];
  for (const side of [0, 1] as const) {
    const weightOf = new Float64Array(rowCounts[side].length);
    for (let b = 0; b < law.weights.length; b++) weightOf[blockIndex[side][b]] += law.weights[b];
    for (let j = 0; j < weightOf.length; j++)
      windowTail[side][j] = Math.min(1e-4, tailBound / Math.max(weightOf[j], tailBound));
  }
  return windowTail;
}

/**
 * One block's sums over the outer side's window, into `into` (pass, inner at most, inner at
 * least): the audit passes iff |x_inner·m_outer − x_outer·m_inner| ≤ limit, i.e. iff
 * lo ≤ x_inner ≤ hi with hi = ⌊(x_outer·m_inner + limit)/m_outer⌋ and
 * lo = ⌊(x_outer·m_inner − limit − 1)/m_outer⌋ + 1, kept as quotient and remainder (exact
 * integer arithmetic: all values stay below 2^53) and advanced by m_inner. O(window).
 */
function blockSums(
  outer: SideTable,
  jOuter: number,
  mOuter: number,
  inner: SideTable,
  jInner: number,
  mInner: number,
  limit: number,
  into: Float64Array,
): void {
  const firstInner = inner.first[jInner];
  const lengthInner = inner.length[jInner];
  const base = inner.offset[jInner] + jInner;
  const firstOuter = outer.first[jOuter];
  const lengthOuter = outer.length[jOuter];
  const baseOuter = outer.offset[jOuter] + jOuter;
  const stepQuotient = Math.floor(mInner / mOuter);
  const stepRemainder = mInner - stepQuotient * mOuter;
  const hiStart = firstOuter * mInner + limit;
  let hiQuotient = Math.floor(hiStart / mOuter);
  let hiRemainder = hiStart - hiQuotient * mOuter;
  const loStart = firstOuter * mInner - limit - 1;
  let loQuotient = Math.floor(loStart / mOuter);
  let loRemainder = loStart - loQuotient * mOuter;
  let blockPass = 0;
  let blockAtMost = 0;
  let blockAtLeast = 0;
  for (let i = 0; i < lengthOuter; i++) {
    const hi = hiQuotient - firstInner;
    const lo = loQuotient + 1 - firstInner;
    const below = inner.prefix[base + (hi < 0 ? 0 : Math.min(hi + 1, lengthInner))];
    const notReached = inner.prefix[base + (lo <= 0 ? 0 : Math.min(lo, lengthInner))];
    const probability = outer.prefix[baseOuter + i + 1] - outer.prefix[baseOuter + i];
    blockPass += probability * (below - notReached);
    blockAtMost += probability * below;
    blockAtLeast += probability * (1 - notReached);
    hiQuotient += stepQuotient;
    hiRemainder += stepRemainder;
    if (hiRemainder >= mOuter) {
      hiRemainder -= mOuter;
      hiQuotient++;
    }
    loQuotient += stepQuotient;
    loRemainder += stepRemainder;
    if (loRemainder >= mOuter) {
      loRemainder -= mOuter;
      loQuotient++;
    }
  }
  into[0] = blockPass;
  into[1] = blockAtMost;
  into[2] = blockAtLeast;
}

/**
 * The evaluator createPassProbabilityEvaluator returns: the law of the metric rows in S,
 * its blocks' distinct row counts and limits, and per side a small cache of window tables
 * by positives (searches vary one coordinate at a time).
 */
class ExactPassProbabilityEvaluator implements PassProbabilityEvaluator {
  private readonly law: AuditSetGroupLaw;
  private readonly rowsOf: readonly [Int32Array, Int32Array];
  private readonly blockIndex: readonly [Int32Array, Int32Array];
  private readonly rowCounts: readonly [Int32Array, Int32Array];
  private readonly maxScaledGap: Float64Array;
  private readonly windowTail: readonly [Float64Array, Float64Array];
  private readonly caches = [new Map<number, SideTable>(), new Map<number, SideTable>()];
  private scratch = new Float64Array(1 << 16);
  private readonly sums = new Float64Array(3);
  private count = 0;

  constructor(
    readonly setting: ExactAuditSetting,
    readonly tailBound: number,
  ) {
    const { population, auditSetSize, design, tolerance } = setting;
    this.law = auditSetGroupLaw(population, auditSetSize, design, tailBound);
    this.rowsOf = [this.law.metricRows0, this.law.metricRows1];
    const { blockIndex, rowCounts } = distinctRowCounts(this.rowsOf, this.law.weights.length);
    this.blockIndex = blockIndex;
    this.rowCounts = rowCounts;
    this.maxScaledGap = maxScaledGaps(this.law, tolerance);
    this.windowTail = windowTails(this.law, rowCounts, blockIndex, tailBound);
  }

  get evaluations(): number {
    return this.count;
  }

  /** The hypergeometric windows of one side at `positives`, one per distinct row count, with prefix sums. */
  private buildTable(side: 0 | 1, positives: number): SideTable {
    const counts = this.rowCounts[side];
    const tails = this.windowTail[side];
    const eligible = this.setting.population.eligibleSizes[side];
    const windows = counts.length;
    const first = new Int32Array(windows);
    const length = new Int32Array(windows);
    const offset = new Int32Array(windows);
    const dropped = new Float64Array(windows);
    let size = 0;
    for (let j = 0; j < windows; j++) {
      const support = Math.min(counts[j], positives) + 1;
      if (this.scratch.length < size + support) {
        const grown = new Float64Array(2 * (size + support));
        grown.set(this.scratch.subarray(0, size));
        this.scratch = grown;
      }
      const placement = fillHypergeometricWindow(eligible, positives, counts[j], tails[j], this.scratch, size);
      first[j] = placement.first;
      length[j] = placement.length;
      offset[j] = size;
      dropped[j] = placement.droppedMass;
      size += placement.length;
    }
    // prefix[offset[j] + j + i] = P(X < first + i) within window j; a probability is a difference.
    const prefix = new Float64Array(size + windows);
    for (let j = 0; j < windows; j++) {
      const from = offset[j];
      const base = from + j;
      let running = 0;
      for (let i = 0; i < length[j]; i++) {
        running += this.scratch[from + i];
        prefix[base + i + 1] = running;
      }
    }
    return { first, length, offset, size, prefix, dropped };
  }

  /** The side's table at `positives`, from the least-recently-used cache of cacheCapacity tables. */
  private tableFor(side: 0 | 1, positives: number): SideTable {
    const cache = this.caches[side];
    const hit = cache.get(positives);
    if (hit !== undefined) {
      cache.delete(positives);
      cache.set(positives, hit);
      return hit;
    }
    const table = this.buildTable(side, positives);
    cache.set(positives, table);
    if (cache.size > cacheCapacity) cache.delete(cache.keys().next().value as number);
    return table;
  }

  outcomes(positives0: number, positives1: number): AuditOutcomeProbabilities {
    this.count++;
    const { law, sums } = this;
    const tables = [this.tableFor(0, positives0), this.tableFor(1, positives1)];
    // Loop over the side with the shorter windows; look the other side up in its prefix sums.
    const outerSide = tables[0].size <= tables[1].size ? 0 : 1;
    const innerSide = 1 - outerSide;
    const outer = tables[outerSide];
    const inner = tables[innerSide];
    const outerRows = this.rowsOf[outerSide];
    const innerRows = this.rowsOf[innerSide];
    const outerIndex = this.blockIndex[outerSide];
    const innerIndex = this.blockIndex[innerSide];
    let pass = 0;
    let innerAtMost = 0;
    let innerAtLeast = 0;
    let dropped = law.droppedMass;
    for (let b = 0; b < law.weights.length; b++) {
      const mOuter = outerRows[b];
      const mInner = innerRows[b];
      if (mOuter === 0 || mInner === 0) continue;
      const weight = law.weights[b];
      const jOuter = outerIndex[b];
      const jInner = innerIndex[b];
      dropped += weight * (outer.dropped[jOuter] + inner.dropped[jInner]);
      blockSums(outer, jOuter, mOuter, inner, jInner, mInner, this.maxScaledGap[b], sums);
      pass += weight * sums[0];
      innerAtMost += weight * sums[1];
      innerAtLeast += weight * sums[2];
    }
    // x_inner ≤ hi is d_S ≤ ε when the inner side is group 1 (x₁m₀ − x₀m₁ ≤ limit) and
    // d_S ≥ −ε when it is group 0; x_inner ≥ lo the other way round.
    const atMost = innerSide === 1 ? innerAtMost : innerAtLeast;
    const atLeast = innerSide === 1 ? innerAtLeast : innerAtMost;
    const error = dropped + roundingAllowance;
    return {
      pass: bounded(pass, error),
      gapAtMostTolerance: bounded(atMost, error),
      gapAtLeastMinusTolerance: bounded(atLeast, error),
    };
  }
}

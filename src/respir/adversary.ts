import { inputError } from '../util/errors.js';
import { type GroupCounts, validateGroupCounts } from './group-counts.js';

/**
 * A provider's manipulation of a set's outputs, as net flips per group:
 * `groupOneLowered` outputs of group 1 flipped 1→0 (negative: flipped 0→1) and
 * `groupZeroRaised` outputs of group 0 flipped 0→1 (negative: flipped 1→0).
 */
export interface Manipulation {
  groupOneLowered: number;
  groupZeroRaised: number;
  /** Outputs flipped: |groupOneLowered| + |groupZeroRaised|. */
  flips: number;
  /** The gap P₁/N₁ − P₀/N₀ after the flips. */
  gap: number;
}

// Kernel notation: D = P₁N₀ − P₀N₁ is the gap times N₀N₁ (an exact integer). Lowering
// group 1 by x and raising group 0 by y gives D − x·N₀ − y·N₁; x ranges over
// [−(N₁ − P₁), P₁] and y over [−P₀, N₀ − P₀].

function manipulation(counts: GroupCounts, x: number, y: number): Manipulation {
  const [n0, n1] = counts.sizes;
  const [p0, p1] = counts.positives;
  return {
    groupOneLowered: x,
    groupZeroRaised: y,
    flips: Math.abs(x) + Math.abs(y),
    gap: (p1 - x) / n1 - (p0 + y) / n0,
  };
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}

/**
 * fewestFlipsToGapKernel(counts, targetGap) is the exact minimum of |x| + |y| with
 * |D − xN₀ − yN₁| ≤ targetGap·N₀N₁, or null when no flips reach it. It loops over the
 * flips of the smaller group (the larger effect), solving for the other group's count
 * in closed form, and only over counts below the best total found so far, seeded by the
 * flips near D/effect: O(flips needed) typically, O(min(N₀, N₁)) at worst.
 */
export function fewestFlipsToGapKernel(counts: GroupCounts, targetGap: number): Manipulation | null {
  const [n0, n1] = counts.sizes;
  const [p0, p1] = counts.positives;
  const scaled = p1 * n0 - p0 * n1;
  const bound = targetGap * n0 * n1 * (1 + 1e-12) + 1e-9;
  // u is the looped variable with coefficient big, v the solved one with coefficient small.
  const loopOverGroupOne = n0 >= n1;
  const big = loopOverGroupOne ? n0 : n1;
  const small = loopOverGroupOne ? n1 : n0;
  const uLow = loopOverGroupOne ? -(n1 - p1) : -p0;
  const uHigh = loopOverGroupOne ? p1 : n0 - p0;
  const vLow = loopOverGroupOne ? -p0 : -(n1 - p1);
  const vHigh = loopOverGroupOne ? n0 - p0 : p1;
  let bestFlips = Number.POSITIVE_INFINITY;
  let bestU = 0;
  let bestV = 0;
  const consider = (u: number): void => {
    if (u < uLow || u > uHigh || Math.abs(u) >= bestFlips) return;
    const residual = scaled - u * big;
    const low = Math.max(vLow, Math.ceil((residual - bound) / small));
    const high = Math.min(vHigh, Math.floor((residual + bound) / small));
    if (low > high) return;
    const v = clamp(0, low, high);
    const flips = Math.abs(u) + Math.abs(v);
    if (flips < bestFlips) {
      bestFlips = flips;
      bestU = u;
      bestV = v;
    }
  };
  consider(0);
  const first = Math.floor((scaled - bound) / big) - 1;
  const last = Math.ceil((scaled + bound) / big) + 1;
  for (let u = first; u <= last; u++) consider(u);
  for (let u = Math.max(uLow, -bestFlips); u <= Math.min(uHigh, bestFlips); u++) consider(u);
  if (bestFlips === Number.POSITIVE_INFINITY) return null;
  return loopOverGroupOne ? manipulation(counts, bestU, bestV) : manipulation(counts, bestV, bestU);
}

/**
 * fewestFlipsToGap(counts, targetGap) is the adversary of paper B §3.2 and §4.3: the
 * fewest output flips that bring |gap| to at most targetGap. When no flip overshoots
 * past −targetGap this is the greedy order the paper's bounds assume (flips of the
 * smaller group first: 0→1 in the lower-rate group or 1→0 in the higher-rate group,
 * whichever moves the gap by more, then the other kind); in general it is the exact
 * optimum over net flips per group, which also covers overshooting cases where a flip
 * of the smaller group moves the gap too far. Apply it to S's counts for the vanilla
 * audit, to C's for respir, to the label = 1 rows for equal opportunity. Returns null
 * when no set of flips reaches the target (e.g. target 0 with coprime group sizes).
 * O(N₁). Throws InputError on bad counts or a negative target.
 */
export function fewestFlipsToGap(counts: GroupCounts, targetGap: number): Manipulation | null {
  validateGroupCounts(counts, 'fewestFlipsToGap: counts');
  if (!(targetGap >= 0))
    throw inputError({ where: 'fewestFlipsToGap: targetGap', expected: 'a gap ≥ 0', found: targetGap });
  return fewestFlipsToGapKernel(counts, targetGap);
}

/**
 * bestManipulationKernel(counts, maxFlips) is the manipulation with at most maxFlips
 * flips that brings |gap| lowest (ties: fewer flips): what a provider does with a flip
 * budget. O(min(maxFlips, N₁)).
 */
export function bestManipulationKernel(counts: GroupCounts, maxFlips: number): Manipulation {
  const [n0, n1] = counts.sizes;
  const [p0, p1] = counts.positives;
  const scaled = p1 * n0 - p0 * n1;
  let bestX = 0;
  let bestY = 0;
  let bestAbs = Math.abs(scaled);
  let bestFlips = 0;
  const xLow = Math.max(-(n1 - p1), -maxFlips);
  const xHigh = Math.min(p1, maxFlips);
  for (let x = xLow; x <= xHigh; x++) {
    const budget = maxFlips - Math.abs(x);
    const residual = scaled - x * n0;
    const y = clamp(Math.round(residual / n1), Math.max(-p0, -budget), Math.min(n0 - p0, budget));
    for (const candidate of [y - 1, y, y + 1]) {
      if (candidate < -p0 || candidate > n0 - p0 || Math.abs(candidate) > budget) continue;
      const absolute = Math.abs(residual - candidate * n1);
      const flips = Math.abs(x) + Math.abs(candidate);
      if (absolute < bestAbs || (absolute === bestAbs && flips < bestFlips)) {
        bestAbs = absolute;
        bestFlips = flips;
        bestX = x;
        bestY = candidate;
      }
    }
  }
  return manipulation(counts, bestX, bestY);
}

/**
 * bestManipulation(counts, maxFlips) validates, then returns bestManipulationKernel:
 * the at-most-maxFlips flips that bring |gap| lowest. O(min(maxFlips, N₁)). Throws
 * InputError on bad counts or a negative or fractional budget.
 * @param counts the audit set's group sizes and positives
 * @param maxFlips the most output flips allowed
 * @returns the flips per group that bring the gap closest to 0 within maxFlips
 * @example
 * const flips = bestManipulation({ sizes: [200, 100], positives: [60, 50] }, 10);
 */
export function bestManipulation(counts: GroupCounts, maxFlips: number): Manipulation {
  validateGroupCounts(counts, 'bestManipulation: counts');
  if (!Number.isInteger(maxFlips) || maxFlips < 0) {
    throw inputError({ where: 'bestManipulation: maxFlips', expected: 'a non-negative integer', found: maxFlips });
  }
  return bestManipulationKernel(counts, maxFlips);
}

/**
 * bestEffortManipulation(counts) is the provider's best effort when no target above 0
 * is asked (paper B §5: "the number of output modifications required to achieve
 * |d_C| = 0"): the fewest flips that bring |gap| within half the finest flip step,
 * 1/(2·max(N₀, N₁)), of zero (an exact zero can need far more flips when the group sizes
 * share no factor). Falls back to the lowest reachable gap when even that is out of
 * reach. About ⌈|gap|·min(N₀, N₁)⌉ flips, as the paper counts. O(min(N₀, N₁)) at worst.
 */
export function bestEffortManipulation(counts: GroupCounts): Manipulation {
  const [n0, n1] = counts.sizes;
  const nearZero = fewestFlipsToGapKernel(counts, 1 / (2 * Math.max(n0, n1)));
  return nearZero ?? bestManipulationKernel(counts, n0 + n1);
}

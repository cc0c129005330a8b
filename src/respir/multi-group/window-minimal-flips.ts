import { decimalFraction } from '../../stats/count-gap-comparison.js';
import type { MultiGroupCounts } from './multi-group-counts.js';
import type { MultiGroupForm } from './multi-group-margin.js';

/** The fewest flips that bring a K-group set within the audit's threshold, and where they go. */
export interface WindowMinimalFlips {
  /** Outputs flipped: Σ_g |changes_g|. */
  readonly flips: number;
  /** Net change of group g's positives (positive: flipped 0→1, negative: 1→0). */
  readonly changes: readonly number[];
  /** The positives per group after the flips. */
  readonly positives: readonly number[];
}

const EXACT_LIMIT = 2 ** 53;

/** ⌊x/y⌋ for integers 0 ≤ x, 0 < y below 2^52, corrected for the rounding of x/y. */
function floorDivide(x: number, y: number): number {
  let result = Math.floor(x / y);
  if (result * y > x) result--;
  else if ((result + 1) * y <= x) result++;
  return result;
}

/** ⌈x/y⌉ for integers 0 ≤ x, 0 < y below 2^52. */
function ceilDivide(x: number, y: number): number {
  const floor = floorDivide(x, y);
  return floor * y === x ? floor : floor + 1;
}

/** ⌊a/b⌋ (⌈a/b⌉ when `up`) for BigInt a ≥ 0, b > 0. */
function quotient(numerator: bigint, denominator: bigint, up: boolean): number {
  const whole = numerator / denominator;
  return Number(up && whole * denominator !== numerator ? whole + 1n : whole);
}

interface WindowKernel {
  /** The count window [low, high] of a group of `size` rows for the window anchored at a/b. */
  window(a: number, b: number, size: number): [number, number];
}

/**
 * differenceWindow(tolerance) anchors [c, c + ε] at its lower end c = a/b:
 * low = ⌈a·n/b⌉, high = ⌊(a·q + p·b)·n/(b·q)⌋ for ε = p/q (the decimal it prints as).
 */
function differenceWindow(tolerance: number, largestSize: number): WindowKernel {
  const { numerator, denominator } = decimalFraction(tolerance);
  const p = Number(numerator);
  const q = Number(denominator);
  const fast = largestSize * largestSize * (p + q + 1) * 2 < EXACT_LIMIT;
  return {
    window(a, b, size) {
      if (fast) return [ceilDivide(a * size, b), floorDivide((a * q + p * b) * size, b * q)];
      const low = quotient(BigInt(a) * BigInt(size), BigInt(b), true);
      const high = quotient(
        (BigInt(a) * denominator + numerator * BigInt(b)) * BigInt(size),
        BigInt(b) * denominator,
        false,
      );
      return [low, high];
    },
  };
}

/**
 * ratioWindow(ρ, slack) anchors [ρ·M + γ, M] at its upper end M = a/b, for ρ = r/s and the
 * required slack γ = g/h: low = ⌈(r·a·h + g·s·b)·n/(s·b·h)⌉, high = ⌊a·n/b⌋.
 */
function ratioWindow(ratio: number, slack: number, largestSize: number): WindowKernel {
  const rho = decimalFraction(ratio);
  const gamma = decimalFraction(slack);
  const [r, s, g, h] = [rho.numerator, rho.denominator, gamma.numerator, gamma.denominator].map(Number);
  const fast = largestSize * largestSize * (r * h + g * s + 1) * s * h * 2 < EXACT_LIMIT;
  return {
    window(a, b, size) {
      if (fast) return [ceilDivide((r * a * h + g * s * b) * size, s * b * h), floorDivide(a * size, b)];
      const top =
        (rho.numerator * BigInt(a) * gamma.denominator + gamma.numerator * rho.denominator * BigInt(b)) * BigInt(size);
      const low = quotient(top, rho.denominator * BigInt(b) * gamma.denominator, true);
      return [low, quotient(BigInt(a) * BigInt(size), BigInt(b), false)];
    },
  };
}

/**
 * windowMinimalFlips(counts, form, threshold) is the exact fewest output flips after which a
 * K-group set passes: max_g y_g/n_g − min_g y_g/n_g ≤ ε (`difference`, threshold ε) or
 * min_g y_g/n_g − ρ·max_g y_g/n_g ≥ γ (`ratio`, threshold γ: 0 for the ratio audit itself,
 * the margin for Theorems 1 and 4's sufficient condition), compared exactly on integers with
 * ε, ρ and γ the decimals they print as. Exact because any passing
 * y lies in the window [c, c + ε] (or [ρM, M]) anchored at its own smallest (largest) rate
 * c = y_j/n_j, and moving each group's count to the nearest count inside that window costs
 * no more than moving it to y_g: so the minimum over the Σ_g (n_g + 1) anchors a/n_j of
 * Σ_g dist(x_g, window_g) is the minimum over all y. An empty window of a group
 * (ε·n_g < 1) rules its anchor out; for the max-gap the anchor 0 always works, for the ratio
 * form with γ > 1 − ρ none does (null).
 * On S this is the exact vanilla minimum (Proposition 1's counterpart); on C with threshold
 * ε − γ it is the exact cost of enforcing Theorem 1's or 4's sufficient condition.
 * O(K·Σ_g n_g). Counts are trusted (1 ≤ n_g, 0 ≤ x_g ≤ n_g, ε ≥ 0, ρ in (0, 1], γ ≥ 0).
 * @param counts the set's metric rows and positives per group
 * @param form the max-gap or the ratio form
 * @param threshold ε for the max-gap, the required slack γ for the ratio form
 * @returns the fewest flips, the net change and the final positives of each group; null when no outputs pass
 * @example
 * windowMinimalFlips({ sizes: [10, 10, 10], positives: [2, 5, 9] }, { kind: 'difference' }, 0.3); // 4 flips
 */
export function windowMinimalFlips(
  counts: MultiGroupCounts,
  form: MultiGroupForm,
  threshold: number,
): WindowMinimalFlips | null {
  const { sizes, positives } = counts;
  const groupCount = sizes.length;
  let largest = 0;
  for (const size of sizes) largest = Math.max(largest, size);
  const kernel =
    form.kind === 'difference' ? differenceWindow(threshold, largest) : ratioWindow(form.ratio, threshold, largest);
  let best = Number.POSITIVE_INFINITY;
  let bestAnchor: [number, number] = [0, 1];
  for (let anchorGroup = 0; anchorGroup < groupCount; anchorGroup++) {
    const b = sizes[anchorGroup];
    for (let a = 0; a <= b; a++) {
      let cost = 0;
      for (let g = 0; g < groupCount && cost < best; g++) {
        const [low, high] = kernel.window(a, b, sizes[g]);
        const top = Math.min(high, sizes[g]);
        if (low > top) {
          cost = Number.POSITIVE_INFINITY;
          break;
        }
        const x = positives[g];
        cost += x < low ? low - x : x > top ? x - top : 0;
      }
      if (cost < best) {
        best = cost;
        bestAnchor = [a, b];
      }
    }
  }
  if (best === Number.POSITIVE_INFINITY) return null;
  const changes: number[] = [];
  const after: number[] = [];
  for (let g = 0; g < groupCount; g++) {
    const [low, high] = kernel.window(bestAnchor[0], bestAnchor[1], sizes[g]);
    const x = positives[g];
    const y = x < low ? low : Math.min(x, Math.min(high, sizes[g]));
    changes.push(y - x);
    after.push(y);
  }
  return { flips: best, changes, positives: after };
}

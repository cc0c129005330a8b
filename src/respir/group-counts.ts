import { inputError } from '../util/errors.js';

/**
 * Per-group counts of a set of outputs (a candidate set C, an audit set S, or their
 * label = 1 rows for equal opportunity): group sizes N₀, N₁ and positives P₀, P₁.
 * The demographic-parity gap is P₁/N₁ − P₀/N₀ (paper B §3.1, d = p₁ − p₀).
 */
export interface GroupCounts {
  sizes: readonly [number, number];
  positives: readonly [number, number];
}

/** gapOf(counts) is P₁/N₁ − P₀/N₀ (paper B's d_S or d_C). O(1). */
export function gapOf(counts: GroupCounts): number {
  return counts.positives[1] / counts.sizes[1] - counts.positives[0] / counts.sizes[0];
}

/**
 * validateGroupCounts(counts, where) throws an InputError unless both group sizes are
 * positive integers and each positive count is an integer in [0, size].
 */
export function validateGroupCounts(counts: GroupCounts, where: string): void {
  for (const group of [0, 1] as const) {
    const size = counts.sizes[group];
    if (!Number.isInteger(size) || size < 1) {
      throw inputError({ where: `${where}: group ${group} size`, expected: 'a positive integer', found: size });
    }
    const positives = counts.positives[group];
    if (!Number.isInteger(positives) || positives < 0 || positives > size) {
      throw inputError({
        where: `${where}: group ${group} positives`,
        expected: `an integer from 0 to ${size}`,
        found: positives,
      });
    }
  }
}

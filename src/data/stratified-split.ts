import type { Random } from '../util/random.js';
import { shuffleInPlace } from '../util/random.js';

/** The two parts of a split, each as ascending row positions. */
export interface IndexSplit {
  /** The rows drawn (the test part, the candidate set, the audit set). */
  readonly selected: Int32Array;
  /** The other rows. */
  readonly rest: Int32Array;
}

/**
 * selectionSize(rows, fraction) is how many rows a fraction selects: ceil(fraction × rows)
 * as scikit-learn's train_test_split rounds a float test_size (so 45% of COMPAS's 6,172
 * rows is 2,778, paper B's Table 2). A tiny tolerance keeps 0.45 × 30,000 at 13,500.
 */
export function selectionSize(rows: number, fraction: number): number {
  return Math.max(0, Math.min(rows, Math.ceil(fraction * rows - 1e-9)));
}

/**
 * allocateByStratum(stratumSizes, total, random) splits `total` draws across strata in
 * proportion to their sizes the way scikit-learn's _approximate_mode does: the floor of
 * each share (size / rows × total), then one more to the strata with the largest
 * remainders; strata whose remainders tie exactly are ordered by a draw from `random`
 * (scikit-learn draws from its own generator there, so such ties cannot match it).
 * O(k log k) for k strata.
 */
export function allocateByStratum(stratumSizes: readonly number[], total: number, random: Random): number[] {
  const rows = stratumSizes.reduce((sum, size) => sum + size, 0);
  if (rows === 0) return stratumSizes.map(() => 0);
  const shares = stratumSizes.map((size) => (size / rows) * total);
  const counts = shares.map((share) => Math.floor(share));
  let left = total - counts.reduce((sum, count) => sum + count, 0);
  const order = shares
    .map((share, k) => ({ k, remainder: share - Math.floor(share), tieBreak: random() }))
    .sort((x, y) => y.remainder - x.remainder || x.tieBreak - y.tieBreak);
  for (const { k } of order) {
    if (left === 0) break;
    if (counts[k] < stratumSizes[k]) {
      counts[k]++;
      left--;
    }
  }
  return counts;
}

/**
 * stratifiedSplit(random, rows, fraction, strata) draws selectionSize(rows, fraction)
 * rows uniformly without replacement; with strata (a stratum id per row, e.g. the label
 * or the protected group) each stratum gives its proportional share (allocateByStratum),
 * so the selected part keeps the strata's proportions (scikit-learn's
 * train_test_split(stratify=...) allocation). With strata null the draw is a
 * plain uniform one. Both parts come back in ascending row order.
 * O(rows) time; the stream of `random` fixes the result.
 */
export function stratifiedSplit(
  random: Random,
  rows: number,
  fraction: number,
  strata: ArrayLike<number> | null,
): IndexSplit {
  const total = selectionSize(rows, fraction);
  const stratumOf = strata ?? new Uint8Array(rows);
  const stratumIds = [...new Set(Array.from({ length: rows }, (_, i) => stratumOf[i]))].sort((x, y) => x - y);
  const members = stratumIds.map((id) => {
    const list: number[] = [];
    for (let i = 0; i < rows; i++) if (stratumOf[i] === id) list.push(i);
    return Int32Array.from(list);
  });
  // As scikit-learn's StratifiedShuffleSplit: allocate the rest first, the selected
  // part gets what remains of each stratum.
  const sizes = members.map((list) => list.length);
  const restCounts = allocateByStratum(sizes, rows - total, random);
  const counts = sizes.map((size, k) => size - restCounts[k]);
  const chosen = new Uint8Array(rows);
  members.forEach((list, k) => {
    shuffleInPlace(random, list);
    for (let j = 0; j < counts[k]; j++) chosen[list[j]] = 1;
  });
  const selected = new Int32Array(total);
  const rest = new Int32Array(rows - total);
  let s = 0;
  let r = 0;
  for (let i = 0; i < rows; i++) {
    if (chosen[i] === 1) selected[s++] = i;
    else rest[r++] = i;
  }
  return { selected, rest };
}

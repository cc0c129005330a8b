import { partialShuffleStep, type Random } from '../util/random.js';

/**
 * shufflePosition(order, swaps, position, random) takes step `position` of the partial
 * Fisher-Yates shuffle of `order` (partialShuffleStep, src/util/random.ts), records the
 * swap partner in swaps[position] so restoreOrder can undo it, and returns the row now
 * at `position`. O(1) per step, so a replicate pays only for the positions it uses.
 * Kernel: no validation.
 */
export function shufflePosition(order: Int32Array, swaps: Int32Array, position: number, random: Random): number {
  swaps[position] = partialShuffleStep(order, position, random);
  return order[position];
}

/**
 * restoreOrder(order, swaps, steps) undoes steps 0..steps-1 of shufflePosition (on an order,
 * or on packed codes shuffled by the same arithmetic) in reverse, returning `order` to the
 * arrangement it had before them, so the next replicate's order depends on its own generator
 * only. O(steps).
 */
export function restoreOrder(order: Int32Array | Uint8Array, swaps: Int32Array, steps: number): void {
  for (let i = steps - 1; i >= 0; i--) {
    const partner = swaps[i];
    const held = order[partner];
    order[partner] = order[i];
    order[i] = held;
  }
}

/**
 * A scratch of at most this many entries per position shuffled is restored by copying its
 * starting arrangement back (a block copy, a fraction of a nanosecond an entry) rather than by
 * undoing each swap (a chain of dependent loads and stores, a few nanoseconds each).
 */
const RESTORE_BY_COPY = 16;

/**
 * restoreScratch(scratch, start, swaps, steps) returns `scratch` (an order, or packed codes,
 * shuffled by steps 0..steps-1 of shufflePosition's arithmetic, partners in `swaps`) to its
 * starting arrangement `start`: by one copy of `start` when the steps touched enough of it,
 * else by undoing the swaps in reverse. The same arrangement either way. O(min(length, steps)).
 */
export function restoreScratch<T extends Int32Array | Uint8Array>(
  scratch: T,
  start: T,
  swaps: Int32Array,
  steps: number,
): void {
  if (RESTORE_BY_COPY * steps >= scratch.length) scratch.set(start);
  else restoreOrder(scratch, swaps, steps);
}

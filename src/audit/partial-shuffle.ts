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
 * restoreOrder(order, swaps, steps) undoes steps 0..steps-1 of shufflePosition in
 * reverse, returning `order` to the arrangement it had before them, so the next
 * replicate's order depends on its own generator only. `order` may also be a scratch of
 * packed codes shuffled by the same steps (PreparedAudit.codes). O(steps).
 */
export function restoreOrder(order: Int32Array | Uint8Array, swaps: Int32Array, steps: number): void {
  for (let i = steps - 1; i >= 0; i--) {
    const partner = swaps[i];
    const held = order[partner];
    order[partner] = order[i];
    order[i] = held;
  }
}

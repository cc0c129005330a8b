import type { Random } from '../util/random.js';

/**
 * shufflePosition(order, swaps, position, random) performs step `position` of a
 * Fisher-Yates shuffle of `order` drawn from the front: it swaps order[position] with
 * order[j] for j uniform in [position, length) (one draw of `random`), records j in
 * swaps[position], and returns the row now at `position`. After steps 0..k-1 the first k
 * entries are a uniform sample without replacement in uniformly random order, whatever
 * the starting arrangement; the cost is O(1) per step, so a replicate pays only for the
 * positions it uses. Kernel: no validation.
 */
export function shufflePosition(order: Int32Array, swaps: Int32Array, position: number, random: Random): number {
  const partner = position + Math.floor(random() * (order.length - position));
  swaps[position] = partner;
  const row = order[partner];
  order[partner] = order[position];
  order[position] = row;
  return row;
}

/**
 * restoreOrder(order, swaps, steps) undoes steps 0..steps-1 of shufflePosition in
 * reverse, returning `order` to the arrangement it had before them, so the next
 * replicate's order depends on its own generator only. O(steps).
 */
export function restoreOrder(order: Int32Array, swaps: Int32Array, steps: number): void {
  for (let i = steps - 1; i >= 0; i--) {
    const partner = swaps[i];
    const held = order[partner];
    order[partner] = order[i];
    order[i] = held;
  }
}

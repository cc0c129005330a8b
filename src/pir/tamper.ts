import type { Random } from '../util/random.js';
import { entryLocation } from './packing.js';
import type { PirParameters } from './parameters.js';

/** How a cheating provider departs from the committed table (see `tamperMatrix`). */
export type TamperMode = 'flip-label' | 'swap-rows' | 'second-database';
export const TAMPER_MODES: readonly TamperMode[] = ['flip-label', 'swap-rows', 'second-database'];

/**
 * tamperMatrix(matrix, parameters, mode, random) returns the packed table a cheating
 * provider answers from after committing to `matrix`:
 * - flip-label: one entry's bit flipped (a single label changed);
 * - swap-rows: two rows of D that differ exchanged;
 * - second-database: a different table altogether (every element redrawn).
 * The positions come from the seeded `random`, so test trials are reproducible.
 * O(ℓm). The input is not modified.
 */
export function tamperMatrix(
  matrix: Uint8Array,
  parameters: PirParameters,
  mode: TamperMode,
  random: Random,
): Uint8Array {
  const { rows, columns, plaintextModulus, entryBits, entryCount } = parameters;
  const out = matrix.slice();
  if (mode === 'flip-label') {
    const { row, column, slot } = entryLocation(Math.floor(random() * entryCount), parameters);
    out[row * columns + column] ^= 1 << (slot * entryBits);
    return out;
  }
  if (mode === 'swap-rows') {
    for (let attempt = 0; attempt < 1000; attempt++) {
      const first = Math.floor(random() * rows);
      const second = Math.floor(random() * rows);
      const a = out.subarray(first * columns, (first + 1) * columns);
      const b = out.subarray(second * columns, (second + 1) * columns);
      if (first === second || a.every((value, c) => value === b[c])) continue;
      const held = a.slice();
      a.set(b);
      b.set(held);
      return out;
    }
    throw new Error('tamperMatrix: no two distinct rows to swap');
  }
  for (let i = 0; i < out.length; i++) out[i] = Math.floor(random() * plaintextModulus);
  return out;
}

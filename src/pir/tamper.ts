import { inputError } from '../util/errors.js';
import type { Random } from '../util/random.js';
import { entryLocation } from './packing.js';
import type { PirParameters } from './parameters.js';

/** How a cheating provider departs from the committed table (see `tamperMatrix`). */
export type TableTamperMode = 'flip-label' | 'swap-rows' | 'second-database';
export const TABLE_TAMPER_MODES: readonly TableTamperMode[] = ['flip-label', 'swap-rows', 'second-database'];

/**
 * How a cheating provider behaves (`pir serve --tamper`): it answers from a tampered
 * table (TableTamperMode), or `replay`s: it commits once, for the first audit's nonce,
 * and sends that transcript to every later audit.
 */
export type TamperMode = TableTamperMode | 'replay';
export const TAMPER_MODES: readonly TamperMode[] = [...TABLE_TAMPER_MODES, 'replay'];

/**
 * tamperMatrix(matrix, parameters, mode, random) returns the packed table a cheating
 * provider answers from after committing to `matrix`:
 * - flip-label: one entry's bit flipped (a single label changed);
 * - swap-rows: two rows of D that differ exchanged (drawn at random; after 1000 draws
 *   of equal rows, row 0 and the first row that differs from it);
 * - second-database: a different table altogether (every element redrawn).
 * The positions come from the seeded `random`, so test trials are reproducible.
 * O(ℓm). The input is not modified. Throws InputError for swap-rows when every row of
 * D is the same (a candidate set with one label throughout leaves nothing to swap).
 */
export function tamperMatrix(
  matrix: Uint8Array,
  parameters: PirParameters,
  mode: TableTamperMode,
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
    const row = (index: number) => out.subarray(index * columns, (index + 1) * columns);
    const equalRows = (first: number, second: number) => row(first).every((value, c) => value === row(second)[c]);
    const swap = (first: number, second: number) => {
      const held = row(first).slice();
      row(first).set(row(second));
      row(second).set(held);
      return out;
    };
    for (let attempt = 0; attempt < 1000; attempt++) {
      const first = Math.floor(random() * rows);
      const second = Math.floor(random() * rows);
      if (first !== second && !equalRows(first, second)) return swap(first, second);
    }
    for (let second = 1; second < rows; second++) if (!equalRows(0, second)) return swap(0, second);
    throw inputError({
      where: 'swap-rows tampering (--tamper swap-rows)',
      expected: 'a candidate set whose PIR table has two rows that differ (decisions not all equal)',
      found: `all ${rows} rows equal`,
    });
  }
  for (let i = 0; i < out.length; i++) out[i] = Math.floor(random() * plaintextModulus);
  return out;
}

import { inputError } from '../util/errors.js';
import type { PirParameters } from './parameters.js';

/** Where an entry lives in the packed matrix: its column, first row, and bit slot. */
export interface EntryLocation {
  readonly column: number;
  /** The row of the (first) element holding the entry. */
  readonly row: number;
  /** For packed entries (d ≤ b): which d-bit slot of the element, 0 = lowest bits. */
  readonly slot: number;
}

/**
 * entryLocation(index, parameters) maps entry t to the matrix. The matrix is filled
 * column by column: with k entries per element, t lies in element e = ⌊t/k⌋ at
 * slot t mod k, row e mod ℓ and column ⌊e/ℓ⌋; with c elements per entry, t lies in
 * column ⌊t/(ℓ/c)⌋ at rows (t mod ℓ/c)·c … +c-1, lowest bits first. O(1).
 */
export function entryLocation(index: number, parameters: PirParameters): EntryLocation {
  const { rows, entriesPerElement, elementsPerEntry } = parameters;
  if (elementsPerEntry === 1) {
    const element = Math.floor(index / entriesPerElement);
    return { column: Math.floor(element / rows), row: element % rows, slot: index % entriesPerElement };
  }
  const entriesPerColumn = rows / elementsPerEntry;
  return {
    column: Math.floor(index / entriesPerColumn),
    row: (index % entriesPerColumn) * elementsPerEntry,
    slot: 0,
  };
}

/**
 * packDatabase(entries, parameters) lays N entries of d bits out as the ℓ × m matrix
 * D over Z_p, one byte per element, row-major (D[r][c] at r·m + c). Unused cells are
 * zero. O(N + ℓm). Throws InputError when the entry count differs from N or an
 * entry does not fit in d bits.
 */
export function packDatabase(entries: ArrayLike<number>, parameters: PirParameters): Uint8Array {
  const { rows, columns, entryBits, elementBits, entryCount, elementsPerEntry } = parameters;
  if (entries.length !== entryCount) {
    throw inputError({
      where: 'PIR database',
      expected: `${entryCount} entries`,
      found: `${entries.length} entries`,
    });
  }
  const matrix = new Uint8Array(rows * columns);
  const limit = 2 ** entryBits;
  const elementModulus = 2 ** elementBits;
  for (let index = 0; index < entryCount; index++) {
    const value = entries[index];
    if (!Number.isInteger(value) || value < 0 || value >= limit) {
      throw inputError({
        where: `PIR database entry ${index}`,
        expected: `an integer in [0, 2^${entryBits})`,
        found: value,
      });
    }
    const { column, row, slot } = entryLocation(index, parameters);
    if (elementsPerEntry === 1) {
      matrix[row * columns + column] |= value << (slot * entryBits);
    } else {
      let rest = value;
      for (let piece = 0; piece < elementsPerEntry; piece++) {
        matrix[(row + piece) * columns + column] = rest % elementModulus;
        rest = Math.floor(rest / elementModulus);
      }
    }
  }
  return matrix;
}

/**
 * readEntry(columnValues, index, parameters) extracts entry t from the recovered
 * Z_p values of its column (length ℓ), inverting packDatabase. O(c).
 */
export function readEntry(columnValues: ArrayLike<number>, index: number, parameters: PirParameters): number {
  const { entryBits, elementBits, elementsPerEntry } = parameters;
  const { row, slot } = entryLocation(index, parameters);
  if (elementsPerEntry === 1) {
    return (columnValues[row] >>> (slot * entryBits)) & (2 ** entryBits - 1);
  }
  let value = 0;
  for (let piece = elementsPerEntry - 1; piece >= 0; piece--) {
    value = value * 2 ** elementBits + columnValues[row + piece];
  }
  return value;
}

/**
 * entriesInColumn(column, parameters) is how many of the N entries live in that column
 * of D (entryLocation): ℓ·k per full column with k entries per element (ℓ/c with c
 * elements per entry), fewer in the last one, none past it. Decrypting one answer
 * recovers every one of them. O(1).
 */
export function entriesInColumn(column: number, parameters: PirParameters): number {
  const { rows, entriesPerElement, elementsPerEntry, entryCount } = parameters;
  const perColumn = elementsPerEntry === 1 ? rows * entriesPerElement : rows / elementsPerEntry;
  return Math.max(0, Math.min(perColumn, entryCount - column * perColumn));
}

import { describe, expect, test } from 'vitest';
import { entriesInColumn, entryLocation, packDatabase, readEntry } from '../../src/pir/packing.js';
import { choosePirParameters, type PirParameters } from '../../src/pir/parameters.js';
import { InputError } from '../../src/util/errors.js';

/** A hand-made shape: 4 rows × 16 columns, p = 2^8 (worked out by hand below). */
function handShape(
  entryBits: number,
  entriesPerElement: number,
  elementsPerEntry: number,
  entryCount: number,
): PirParameters {
  return {
    ...choosePirParameters({ entryCount: 1, entryBits: 1 }),
    entryCount,
    entryBits,
    elementBits: 8,
    plaintextModulus: 256,
    entriesPerElement,
    elementsPerEntry,
    rows: 4,
    columns: 16,
  };
}

describe('packDatabase(entries, parameters)', () => {
  test('packs eight 1-bit labels per byte, lowest bit first, filling column 0 top to bottom', () => {
    const parameters = handShape(1, 8, 1, 40);
    const entries = new Array(40).fill(0);
    // entries 0..7 -> element 0 (row 0, column 0); 8..15 -> element 1 (row 1, column 0);
    // 32..39 -> element 4 = row 0 of column 1.
    entries[0] = 1;
    entries[3] = 1; // element 0 = 0b00001001 = 9
    entries[15] = 1; // element 1 = 0b10000000 = 128
    entries[33] = 1; // element 4 = 0b00000010 = 2 at (row 0, column 1)
    const matrix = packDatabase(entries, parameters);
    expect(matrix[0 * 16 + 0]).toBe(9);
    expect(matrix[1 * 16 + 0]).toBe(128);
    expect(matrix[0 * 16 + 1]).toBe(2);
    expect(matrix.reduce((sum, value) => sum + value, 0)).toBe(9 + 128 + 2);
  });

  test('packs two 3-bit entries per byte (⌊8/3⌋ = 2): [5, 6] -> 5 + 6·8 = 53', () => {
    const parameters = handShape(3, 2, 1, 2);
    expect(packDatabase([5, 6], parameters)[0]).toBe(53);
  });

  test('splits a 12-bit entry over two bytes of one column, low byte first: 0xABC -> 0xBC, 0x0A', () => {
    const parameters = handShape(12, 1, 2, 3);
    const matrix = packDatabase([0, 0, 0xabc], parameters);
    // entries per column = 4 rows / 2 = 2, so entry 2 starts column 1 at row 0
    expect(entryLocation(2, parameters)).toEqual({ column: 1, row: 0, slot: 0 });
    expect(matrix[0 * 16 + 1]).toBe(0xbc);
    expect(matrix[1 * 16 + 1]).toBe(0x0a);
  });

  test('readEntry inverts packDatabase for every entry (1, 3, 8, 12, 32 bits)', () => {
    for (const bits of [1, 3, 8, 12, 32]) {
      const parameters = choosePirParameters({ entryCount: 777, entryBits: bits });
      const entries = Array.from({ length: 777 }, (_, i) => (i * 2_654_435_761) % 2 ** bits);
      const matrix = packDatabase(entries, parameters);
      for (let i = 0; i < entries.length; i++) {
        const { column } = entryLocation(i, parameters);
        const columnValues = Array.from({ length: parameters.rows }, (_, r) => matrix[r * parameters.columns + column]);
        expect(readEntry(columnValues, i, parameters)).toBe(entries[i]);
      }
    }
  });

  test('throws InputError for an entry that does not fit and for a wrong entry count', () => {
    const parameters = choosePirParameters({ entryCount: 3, entryBits: 1 });
    expect(() => packDatabase([0, 2, 1], parameters)).toThrow(
      /PIR database entry 1: expected an integer in \[0, 2\^1\), found 2/,
    );
    expect(() => packDatabase([0, 1], parameters)).toThrow(InputError);
  });
});

describe('entriesInColumn(column, parameters)', () => {
  test('counts the entries entryLocation puts in each column: full columns, the partial last one, none past it', () => {
    for (const shape of [
      handShape(1, 8, 1, 40),
      handShape(12, 1, 2, 10),
      choosePirParameters({ entryCount: 13_500, entryBits: 1 }),
    ]) {
      const counted = new Array(shape.columns).fill(0);
      for (let index = 0; index < shape.entryCount; index++) counted[entryLocation(index, shape).column]++;
      expect(counted.map((_, column) => entriesInColumn(column, shape))).toEqual(counted);
    }
    // 4 rows × 8 entries per byte = 32 per column: 40 entries fill column 0 and 8 of column 1.
    expect([0, 1, 2].map((column) => entriesInColumn(column, handShape(1, 8, 1, 40)))).toEqual([32, 8, 0]);
  });
});

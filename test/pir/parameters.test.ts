import { describe, expect, test } from 'vitest';
import { choosePirParameters, noiseBound, scalingFactor } from '../../src/pir/parameters.js';
import { InputError } from '../../src/util/errors.js';

describe('noiseBound(p, m, ℓ)', () => {
  test(
    'equals σ(p-1)√m·√(2 ln(2ℓ·2^40)) (numpy: 6.4*255*sqrt(1456)*sqrt(2*(log(2*1444)+40*log(2))) = ' + '526156.2178)',
    () => {
      expect(noiseBound(256, 1456, 1444)).toBeCloseTo(526156.2178040766, 6);
    },
  );
});

describe('choosePirParameters({entryCount, entryBits})', () => {
  test('2^24 one-bit labels: p = 256, eight labels per byte, near-square 1444 × 1456, B < Δ/2', () => {
    const parameters = choosePirParameters({ entryCount: 2 ** 24, entryBits: 1 });
    expect(parameters.plaintextModulus).toBe(256);
    expect(parameters.entriesPerElement).toBe(8);
    expect([parameters.rows, parameters.columns]).toEqual([1444, 1456]);
    expect(parameters.noiseBound).toBeLessThan(scalingFactor(parameters) / 2);
    expect(parameters.rows * parameters.columns * 8).toBeGreaterThanOrEqual(2 ** 24);
  });

  test('keeps p = 256 up to the largest database accepted (2^31 entries of 32 bits): B < Δ/2 = 2^23', () => {
    // m ≈ √(2^33) ≈ 92682, B ≈ 6.4·255·√92688·7.6 ≈ 3.8e6 < 2^23 ≈ 8.4e6: the one-byte
    // layout, not the noise, is what caps p here.
    const parameters = choosePirParameters({ entryCount: 2 ** 31, entryBits: 32 });
    expect(parameters.plaintextModulus).toBe(256);
    expect(parameters.noiseBound).toBeGreaterThan(3.5e6);
    expect(parameters.noiseBound).toBeLessThan(2 ** 23);
  });

  test('rows are a multiple of 4 and columns of 16 for every size 1..2^20', () => {
    for (let logN = 0; logN <= 20; logN++) {
      const parameters = choosePirParameters({ entryCount: 2 ** logN, entryBits: 1 });
      expect(parameters.rows % 4).toBe(0);
      expect(parameters.columns % 16).toBe(0);
    }
  });

  test('throws InputError for a non-integer size or bits outside [1, 32]', () => {
    expect(() => choosePirParameters({ entryCount: 0, entryBits: 1 })).toThrow(InputError);
    expect(() => choosePirParameters({ entryCount: 10.5, entryBits: 1 })).toThrow(InputError);
    expect(() => choosePirParameters({ entryCount: 10, entryBits: 33 })).toThrow(/PIR entry bits/);
  });
});

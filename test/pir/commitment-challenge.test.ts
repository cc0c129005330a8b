import { describe, expect, test } from 'vitest';
import { commitmentChallenge } from '../../src/pir/commitment-challenge.js';
import { expandSeed } from '../../src/pir/expand-seed.js';
import { CHALLENGE_ROWS, choosePirParameters } from '../../src/pir/parameters.js';
import { tamperMatrix } from '../../src/pir/tamper.js';
import { InputError } from '../../src/util/errors.js';
import { createRandom } from '../../src/util/random.js';

describe('commitmentChallenge(parameters, seed, hint)', () => {
  const parameters = choosePirParameters({ entryCount: 5000, entryBits: 1 });
  const seed = new Uint8Array(16).fill(7);
  const hint = expandSeed(seed, parameters.rows * parameters.lweDimension, 9);

  test('is a deterministic 128 × ℓ matrix of bits, about half ones', () => {
    const first = commitmentChallenge(parameters, seed, hint);
    expect(first.length).toBe(CHALLENGE_ROWS * parameters.rows);
    expect(Array.from(commitmentChallenge(parameters, seed, hint))).toEqual(Array.from(first));
    expect(first.every((bit) => bit === 0 || bit === 1)).toBe(true);
    const ones = first.reduce((sum, bit) => sum + bit, 0);
    // Binomial(128·ℓ, 1/2): mean 64ℓ, sd √(32ℓ); 6 sd either side.
    expect(Math.abs(ones - 64 * parameters.rows)).toBeLessThan(6 * Math.sqrt(32 * parameters.rows));
  });

  test('changes when one word of the hint or one byte of the seed changes (Fiat-Shamir binds both)', () => {
    const first = commitmentChallenge(parameters, seed, hint);
    const otherHint = hint.slice();
    otherHint[123] ^= 1;
    const otherSeed = seed.slice();
    otherSeed[0] ^= 1;
    const differing = (other: Uint8Array) => other.reduce((count, bit, i) => count + (bit !== first[i] ? 1 : 0), 0);
    expect(differing(commitmentChallenge(parameters, seed, otherHint))).toBeGreaterThan(first.length / 4);
    expect(differing(commitmentChallenge(parameters, otherSeed, hint))).toBeGreaterThan(first.length / 4);
  });
});

describe('expandSeed(seed, words, domain)', () => {
  test('is AES-128-CTR: the first block under key 000102…0f and a zero counter is AES(key, 0^128)', () => {
    // AES-128 of the all-zero block under key 000102...0f, computed with
    // `printf '\x00%.0s' {1..16} | openssl enc -aes-128-ecb -K 000102030405060708090a0b0c0d0e0f -nopad | xxd -p`:
    // c6a13b37878f5b826f4f8162a1c8d879.
    const key = Uint8Array.from({ length: 16 }, (_, i) => i);
    const words = expandSeed(key, 4, 0);
    const bytes = Buffer.from(words.buffer).toString('hex');
    expect(bytes).toBe('c6a13b37878f5b826f4f8162a1c8d879');
  });
});

describe('tamperMatrix(matrix, parameters, mode, random)', () => {
  const parameters = choosePirParameters({ entryCount: 4000, entryBits: 1 });
  const matrix = Uint8Array.from({ length: parameters.rows * parameters.columns }, (_, i) => (i * 37) % 256);

  test('flip-label changes exactly one bit of one element', () => {
    const tampered = tamperMatrix(matrix, parameters, 'flip-label', createRandom('flip'));
    const changed = Array.from(tampered)
      .map((value, i) => value ^ matrix[i])
      .filter((x) => x !== 0);
    expect(changed.length).toBe(1);
    expect(changed[0] & (changed[0] - 1)).toBe(0);
  });

  test('swap-rows exchanges two different rows and leaves the rest', () => {
    const tampered = tamperMatrix(matrix, parameters, 'swap-rows', createRandom('swap'));
    const { columns, rows } = parameters;
    const changedRows = Array.from({ length: rows }, (_, r) => r).filter((r) =>
      tampered.subarray(r * columns, (r + 1) * columns).some((value, c) => value !== matrix[r * columns + c]),
    );
    expect(changedRows.length).toBe(2);
    const [a, b] = changedRows;
    expect(Array.from(tampered.subarray(a * columns, (a + 1) * columns))).toEqual(
      Array.from(matrix.subarray(b * columns, (b + 1) * columns)),
    );
  });

  test('swap-rows swaps the one row that differs from the rest with another', () => {
    const { columns, rows } = parameters;
    const single = new Uint8Array(rows * columns);
    single[(rows - 1) * columns + 3] = 1;
    const tampered = tamperMatrix(single, parameters, 'swap-rows', createRandom('swap-single'));
    expect(tampered[(rows - 1) * columns + 3]).toBe(0);
    const rowsWithTheOne = Array.from({ length: rows }, (_, r) => r).filter((r) => tampered[r * columns + 3] === 1);
    expect(rowsWithTheOne).toHaveLength(1);
    expect(tampered.reduce((sum, value) => sum + value, 0)).toBe(1);
  });

  test('swap-rows throws InputError when every row is the same (a pool with one decision throughout)', () => {
    // Before: a plain Error, so "pir serve --tamper swap-rows" on such a pool exited 1 as an internal error.
    const constant = new Uint8Array(parameters.rows * parameters.columns);
    expect(() => tamperMatrix(constant, parameters, 'swap-rows', createRandom('swap-none'))).toThrow(InputError);
    expect(() => tamperMatrix(constant, parameters, 'swap-rows', createRandom('swap-none'))).toThrow(
      /--tamper swap-rows.*found "all \d+ rows equal"/,
    );
  });

  test('second-database differs from the committed table in most elements and leaves the input untouched', () => {
    const copy = matrix.slice();
    const tampered = tamperMatrix(matrix, parameters, 'second-database', createRandom('second'));
    expect(Array.from(matrix)).toEqual(Array.from(copy));
    const same = tampered.reduce((count, value, i) => count + (value === matrix[i] ? 1 : 0), 0);
    expect(same).toBeLessThan(matrix.length / 50);
  });
});

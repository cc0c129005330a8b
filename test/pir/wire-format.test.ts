import { describe, expect, test } from 'vitest';
import { decodeMessage, encodeMessage } from '../../src/pir/wire-format.js';
import { InputError } from '../../src/util/errors.js';

describe('encodeMessage / decodeMessage', () => {
  const words = Uint32Array.from([1, 2, 3, 4, 5, 6, 0xffffffff, 0]);

  test('round-trips two queries of four words', () => {
    const bytes = encodeMessage('query', words, 2, 4);
    expect(bytes.length).toBe(16 + 32);
    const decoded = decodeMessage(bytes, 'query', 4, 10, 'PIR query');
    expect(decoded.count).toBe(2);
    expect(Array.from(decoded.words)).toEqual(Array.from(words));
  });

  test('rejects the wrong vector length, kind, modulus, size and batch', () => {
    const bytes = encodeMessage('query', words, 2, 4);
    expect(() => decodeMessage(bytes, 'query', 8, 10, 'PIR query')).toThrow(
      'PIR query: expected vectors of 8 elements, found "4 elements"',
    );
    expect(() => decodeMessage(bytes, 'answer', 4, 10, 'PIR answer')).toThrow(/expected a message of kind "answer"/);
    const wrongModulus = bytes.slice();
    wrongModulus[6] = 64;
    expect(() => decodeMessage(wrongModulus, 'query', 4, 10, 'PIR query')).toThrow(
      'PIR query: expected modulus q = 2^32, found "q = 2^64"',
    );
    expect(() => decodeMessage(bytes.subarray(0, bytes.length - 4), 'query', 4, 10, 'PIR query')).toThrow(
      /expected 48 bytes, found "44 bytes"/,
    );
    expect(() => decodeMessage(bytes, 'query', 4, 1, 'PIR query')).toThrow(/between 1 and 1 vectors/);
    expect(() => decodeMessage(new Uint8Array(3), 'query', 4, 1, 'PIR query')).toThrow(InputError);
    const notOurs = bytes.slice();
    notOurs[0] = 0;
    expect(() => decodeMessage(notOurs, 'query', 4, 10, 'PIR query')).toThrow(/magic/);
  });
});

import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { candidateListDigest } from '../../src/pir/candidate-digest.js';

describe('candidateListDigest(ids, groups)', () => {
  const groups = Uint8Array.from([0, 1, 1, 0, 1]);
  const ids = Int32Array.from([10, 11, 12, 13, 14]);

  test('is SHA-256 of the domain, N and each (id, group) as documented; no ids means row numbers', () => {
    // The bytes written out by hand: u32 N = 2, then (i32 id, u8 group) per candidate, little-endian.
    const bytes = Buffer.from([2, 0, 0, 0, 7, 0, 0, 0, 1, 0xff, 0xff, 0xff, 0xff, 0]);
    const expected = createHash('sha256').update('fairaudit/pir/candidates/v1').update(bytes).digest();
    expect(Buffer.from(candidateListDigest(Int32Array.from([7, -1]), Uint8Array.from([1, 0]))).equals(expected)).toBe(
      true,
    );
    expect(candidateListDigest(null, groups)).toEqual(candidateListDigest(Int32Array.from([0, 1, 2, 3, 4]), groups));
  });

  test('changes with the order of the candidates, an id or a group', () => {
    const digest = Buffer.from(candidateListDigest(ids, groups)).toString('hex');
    const swapped = Buffer.from(
      candidateListDigest(Int32Array.from([11, 10, 12, 13, 14]), Uint8Array.from([1, 0, 1, 0, 1])),
    ).toString('hex');
    const otherId = Buffer.from(candidateListDigest(Int32Array.from([10, 11, 12, 13, 15]), groups)).toString('hex');
    const otherGroup = Buffer.from(candidateListDigest(ids, Uint8Array.from([0, 1, 1, 0, 0]))).toString('hex');
    expect(new Set([digest, swapped, otherId, otherGroup]).size).toBe(4);
  });
});

import { describe, expect, it } from 'vitest';
import { decodeChunkPayload, encodeChunkPayload } from '../../src/harness/chunk-payload.js';
import type { OutcomeColumn } from '../../src/harness/kind-runner.js';
import { isInputError } from '../../src/util/errors.js';

const columns: OutcomeColumn[] = [
  { name: 'decision', type: 'utf8', description: 'text' },
  { name: 'queries', type: 'int32', description: 'integer' },
  { name: 'statistic', type: 'float64', description: 'float' },
  { name: 'flag', type: 'bool', description: 'boolean' },
];

const payload = {
  rows: 3,
  seeds: ['a1', 'b2', 'c3'],
  outcomes: {
    decision: ['reject', 'accept', 'reject'],
    queries: [7, -2147483648, 2147483647],
    // NaN, -0 and a subnormal: float64 bits must survive the round trip.
    statistic: [Number.NaN, -0, 5e-324],
    flag: [true, false, true],
  },
};

describe('encodeChunkPayload(columns, payload) / decodeChunkPayload(bytes, columns, where)', () => {
  it('round-trips seeds and every column type, with the float64 bits kept', () => {
    const bytes = encodeChunkPayload(columns, payload);
    expect(bytes.byteLength % 8).toBe(0);
    const back = decodeChunkPayload(bytes, columns, 'chunk');
    expect(back.rows).toBe(3);
    expect(back.seeds).toEqual(payload.seeds);
    expect(back.outcomes.decision).toEqual(payload.outcomes.decision);
    expect(back.outcomes.queries).toEqual(payload.outcomes.queries);
    expect(back.outcomes.flag).toEqual(payload.outcomes.flag);
    expect(Number.isNaN(back.outcomes.statistic[0])).toBe(true);
    expect(Object.is(back.outcomes.statistic[1], -0)).toBe(true);
    expect(back.outcomes.statistic[2]).toBe(5e-324);
  });

  it('gives the same bytes for the same chunk, and other bytes for another', () => {
    const again = encodeChunkPayload(columns, structuredClone(payload));
    expect(Buffer.from(again).equals(Buffer.from(encodeChunkPayload(columns, payload)))).toBe(true);
    const other = structuredClone(payload);
    other.outcomes.queries[0] = 8;
    expect(Buffer.from(encodeChunkPayload(columns, other)).equals(Buffer.from(again))).toBe(false);
  });

  it('throws InputError naming the file for truncated, foreign or mismatched bytes', () => {
    const bytes = encodeChunkPayload(columns, payload);
    const attempts: [Uint8Array, readonly OutcomeColumn[], RegExp][] = [
      [bytes.subarray(0, bytes.length - 8), columns, /where the header implies/],
      [new TextEncoder().encode('ARROW1 not a chunk'), columns, /found other bytes/],
      [bytes.subarray(0, 5), columns, /found 5 bytes/],
      [bytes, columns.slice(0, 3), /found the columns/],
    ];
    for (const [input, expected, message] of attempts) {
      let caught: unknown;
      try {
        decodeChunkPayload(input, expected, 'ck/chunk-0000001.bin');
      } catch (error) {
        caught = error;
      }
      expect(isInputError(caught)).toBe(true);
      expect((caught as Error).message).toMatch(/^ck\/chunk-0000001\.bin: expected a fairaudit chunk checkpoint/);
      expect((caught as Error).message).toMatch(message);
    }
  });
});

import { describe, expect, test } from 'vitest';
import { choosePirParameters } from '../../src/pir/parameters.js';
import { PirClient } from '../../src/pir/pir-client.js';
import { PirServer } from '../../src/pir/pir-server.js';
import { PirVerificationError } from '../../src/pir/pir-verification-error.js';
import { createRandom } from '../../src/util/random.js';

function randomEntries(count: number, bits: number, seed: string): number[] {
  const random = createRandom(seed);
  return Array.from({ length: count }, () => Math.floor(random() * 2 ** bits));
}

async function setUp(count: number, bits: number, seed: string) {
  const parameters = choosePirParameters({ entryCount: count, entryBits: bits });
  const entries = randomEntries(count, bits, seed);
  const server = await PirServer.create(entries, parameters);
  const { hint, proof } = server.commit();
  const client = await PirClient.create(parameters, server.seed, hint);
  client.verifyCommitment(proof);
  return { parameters, entries, server, client };
}

describe('PirClient.query / PirServer.answer / PirClient.recover', () => {
  const shapes: Array<[number, number]> = [
    [1, 1],
    [1000, 1],
    [2 ** 14, 1],
    [13_500, 1],
    [2 ** 16, 1],
    [5000, 3],
    [3000, 8],
    [2000, 12],
    [700, 32],
  ];
  for (const [count, bits] of shapes) {
    test(`recover(answer(query(i))) = entry i for ${count} entries of ${bits} bits`, async () => {
      const { entries, server, client } = await setUp(count, bits, `db-${count}-${bits}`);
      const random = createRandom(`indices-${count}-${bits}`);
      const indices = [0, count - 1, ...Array.from({ length: 30 }, () => Math.floor(random() * count))];
      for (const index of indices) {
        const state = client.query(index);
        const answer = server.answer(state.query, 1);
        expect(client.recover(answer, state, index)).toBe(entries[index]);
      }
    });
  }

  test('answer(batch) equals the single answers, query by query', async () => {
    const { parameters, server, client } = await setUp(40_000, 1, 'batch');
    const states = [3, 17, 39_999, 20_000, 5, 5, 12_345].map((index) => client.query(index));
    const batch = new Uint32Array(states.length * parameters.columns);
    states.forEach((state, q) => {
      batch.set(state.query, q * parameters.columns);
    });
    const together = server.answer(batch, states.length);
    states.forEach((state, q) => {
      const alone = server.answer(state.query, 1);
      expect(Array.from(together.subarray(q * parameters.rows, (q + 1) * parameters.rows))).toEqual(Array.from(alone));
    });
  });

  test('answer(query) equals D·u computed with BigInt arithmetic modulo 2^32', async () => {
    const { parameters, server, client } = await setUp(3000, 1, 'bigint');
    const matrix = server.matrix();
    const state = client.query(1234);
    const answer = server.answer(state.query, 1);
    for (let r = 0; r < parameters.rows; r++) {
      let sum = 0n;
      for (let c = 0; c < parameters.columns; c++) {
        sum += BigInt(matrix[r * parameters.columns + c]) * BigInt(state.query[c]);
      }
      expect(answer[r]).toBe(Number(sum % 2n ** 32n));
    }
  });

  test('hint() equals D·A computed with BigInt arithmetic modulo 2^32 (sampled cells)', async () => {
    const { parameters, server } = await setUp(5000, 1, 'hint');
    const matrix = server.matrix();
    const a = server.publicMatrix();
    const hint = server.hint(a);
    const n = parameters.lweDimension;
    for (const [r, k] of [
      [0, 0],
      [parameters.rows - 1, n - 1],
      [3, 517],
      [parameters.rows >> 1, 100],
    ]) {
      let sum = 0n;
      for (let c = 0; c < parameters.columns; c++) {
        sum += BigInt(matrix[r * parameters.columns + c]) * BigInt(a[c * n + k]);
      }
      expect(hint[r * n + k]).toBe(Number(sum % 2n ** 32n));
    }
  });

  test('recover(answer) throws PirVerificationError for an answer of the wrong length', async () => {
    const { parameters, client } = await setUp(1000, 1, 'length');
    const state = client.query(1);
    expect(() => client.recover(new Uint32Array(parameters.rows + 1), state, 1)).toThrow(PirVerificationError);
  });
});

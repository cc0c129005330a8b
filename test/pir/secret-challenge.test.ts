import { randomBytes } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { commitmentChallenge } from '../../src/pir/commitment-challenge.js';
import { CHALLENGE_ROWS, choosePirParameters } from '../../src/pir/parameters.js';
import { PirClient } from '../../src/pir/pir-client.js';
import { PirServer } from '../../src/pir/pir-server.js';
import { PirVerificationError } from '../../src/pir/pir-verification-error.js';
import { secretChallengeShape } from '../../src/pir/secret-challenge.js';
import { tamperMatrix } from '../../src/pir/tamper.js';
import { createRandom } from '../../src/util/random.js';

/** A non-zero x ∈ {0,1}^columns with C·x ≡ 0 (mod 2), by Gaussian elimination over GF(2). */
function kernelVectorModTwo(matrix: Uint8Array, rows: number, columns: number): Uint8Array {
  const work = Array.from({ length: rows }, (_, r) => Array.from(matrix.subarray(r * columns, (r + 1) * columns)));
  const pivotOfColumn = new Array(columns).fill(-1);
  let pivotRow = 0;
  for (let c = 0; c < columns && pivotRow < rows; c++) {
    const found = work.findIndex((row, r) => r >= pivotRow && row[c] === 1);
    if (found < 0) continue;
    [work[pivotRow], work[found]] = [work[found], work[pivotRow]];
    for (let r = 0; r < rows; r++) {
      if (r !== pivotRow && work[r][c] === 1) work[r] = work[r].map((bit, i) => bit ^ work[pivotRow][i]);
    }
    pivotOfColumn[c] = pivotRow++;
  }
  const free = pivotOfColumn.indexOf(-1);
  const x = new Uint8Array(columns);
  x[free] = 1;
  pivotOfColumn.forEach((row, c) => {
    if (row >= 0) x[c] = work[row][free];
  });
  return x;
}

async function committedPair(count: number, seed: string) {
  const parameters = choosePirParameters({ entryCount: count, entryBits: 1 });
  const random = createRandom(seed);
  const entries = Array.from({ length: count }, () => (random() < 0.5 ? 1 : 0));
  const server = await PirServer.create(entries, parameters);
  const { hint, proof } = server.commit();
  const client = await PirClient.create(parameters, server.seed, hint);
  client.verifyCommitment(proof);
  return { parameters, entries, server, client, hint };
}

describe('secretChallengeShape(parameters)', () => {
  test('2^24 labels (ℓ = 1444): 4-bit digits, two planes, p′ = 2^15, bound below Δ′/2 = 2^16', () => {
    const shape = secretChallengeShape(choosePirParameters({ entryCount: 2 ** 24, entryBits: 1 }));
    expect(shape).toMatchObject({ digitBits: 4, planes: 2, plaintextBits: 15 });
    expect(shape.noiseBound).toBeLessThan(2 ** 16);
  });
});

describe('PirClient.beginSecretChallenge / PirServer.answerChallenge / PirClient.finishSecretChallenge', () => {
  test('an honest provider passes and answers still decrypt correctly under the secret C', async () => {
    const { parameters, entries, server, client } = await committedPair(2 ** 18, 'secret-honest');
    const seed = new Uint8Array(randomBytes(16));
    const { encrypted, state } = client.beginSecretChallenge(seed);
    expect(encrypted.length).toBe(parameters.rows * CHALLENGE_ROWS);
    client.finishSecretChallenge(state, server.challengeHints(seed), server.answerChallenge(encrypted));
    expect(client.secretChallenge).toBe(true);
    for (const index of [0, 77, 2 ** 18 - 1, 123_456]) {
      const query = client.query(index);
      expect(client.recover(server.answer(query.query, 1), query, index)).toBe(entries[index]);
    }
  });

  test('a provider evaluating another table on the challenge is rejected', async () => {
    const { parameters, server, client } = await committedPair(2 ** 16, 'secret-cheat');
    const cheat = await PirServer.fromMatrix(
      tamperMatrix(server.matrix(), parameters, 'flip-label', createRandom('secret-cheat-flip')),
      parameters,
      server.seed,
    );
    const seed = new Uint8Array(randomBytes(16));
    const { encrypted, state } = client.beginSecretChallenge(seed);
    expect(() =>
      client.finishSecretChallenge(state, cheat.challengeHints(seed), cheat.answerChallenge(encrypted)),
    ).toThrow(PirVerificationError);
  });

  test(
    'the malleation v + 2^31·x with C_public·x ≡ 0 (mod 2) passes the public checks but not the secret ' + 'C',
    async () => {
      const { parameters, server, client, hint } = await committedPair(2 ** 18, 'malleation');
      const { rows } = parameters;
      expect(rows).toBeGreaterThan(CHALLENGE_ROWS);
      const x = kernelVectorModTwo(commitmentChallenge(parameters, server.seed, hint), CHALLENGE_ROWS, rows);
      const malleate = (answer: Uint32Array) => answer.map((value, r) => (value + (x[r] ? 2 ** 31 : 0)) >>> 0);
      // Public challenge only (paper B Figure 3): accepted, and rows with x = 1 decrypt to value + 128.
      const publicQuery = client.query(5);
      const honest = client.recoverColumn(server.answer(publicQuery.query, 1), publicQuery).values;
      const fooled = client.recoverColumn(malleate(server.answer(publicQuery.query, 1)), publicQuery).values;
      const shifted = Array.from(fooled).filter((value, r) => value !== honest[r]).length;
      expect(shifted).toBe(x.reduce((sum, bit) => sum + bit, 0));
      // Secret challenge (VeriSimplePIR Construction 5.1): rejected.
      const seed = new Uint8Array(randomBytes(16));
      const { encrypted, state } = client.beginSecretChallenge(seed);
      client.finishSecretChallenge(state, server.challengeHints(seed), server.answerChallenge(encrypted));
      const secretQuery = client.query(5);
      expect(() => client.recoverColumn(malleate(server.answer(secretQuery.query, 1)), secretQuery)).toThrow(
        /Z·u ≠ C·v/,
      );
    },
  );
});

import { describe, expect, test } from 'vitest';
import { CHALLENGE_ROWS, choosePirParameters, type PirParameters } from '../../src/pir/parameters.js';
import { PirClient } from '../../src/pir/pir-client.js';
import { PirServer } from '../../src/pir/pir-server.js';
import { PirVerificationError } from '../../src/pir/pir-verification-error.js';
import { TABLE_TAMPER_MODES, type TableTamperMode, tamperMatrix } from '../../src/pir/tamper.js';
import { createRandom, type Random } from '../../src/util/random.js';

async function committed(count: number, seed: string) {
  const parameters = choosePirParameters({ entryCount: count, entryBits: 1 });
  const random = createRandom(seed);
  const entries = Array.from({ length: count }, () => (random() < 0.4 ? 1 : 0));
  const server = await PirServer.create(entries, parameters);
  const { hint, proof } = server.commit();
  return { parameters, entries, server, hint, proof };
}

/**
 * Plays `trials` cheating providers against client (the tamper modes in turn, each a
 * fresh tampered copy of server's table answering one query) and counts, per mode, the
 * answers the client rejects with a PirVerificationError.
 */
async function caughtTampering(
  client: PirClient,
  server: PirServer,
  parameters: PirParameters,
  random: Random,
  trials: number,
): Promise<Record<TableTamperMode, number>> {
  const matrix = server.matrix();
  const caught: Record<TableTamperMode, number> = { 'flip-label': 0, 'swap-rows': 0, 'second-database': 0 };
  for (let trial = 0; trial < trials; trial++) {
    const mode = TABLE_TAMPER_MODES[trial % TABLE_TAMPER_MODES.length];
    const cheat = await PirServer.fromMatrix(tamperMatrix(matrix, parameters, mode, random), parameters, server.seed);
    const index = Math.floor(random() * parameters.entryCount);
    const state = client.query(index);
    try {
      client.recover(cheat.answer(state.query, 1), state, index);
    } catch (error) {
      if (!(error instanceof PirVerificationError)) throw error;
      caught[mode]++;
    }
  }
  return caught;
}

describe('PirClient.verifyCommitment(proof) (paper B Figure 3)', () => {
  test('accepts the honest digest', async () => {
    const { parameters, server, hint, proof } = await committed(20_000, 'honest');
    const client = await PirClient.create(parameters, server.seed, hint);
    expect(() => client.verifyCommitment(proof)).not.toThrow();
    expect(client.committed).toBe(true);
  });

  test('rejects Z with one entry changed (Z·A ≠ C·H)', async () => {
    const { parameters, server, hint, proof } = await committed(20_000, 'changed-z');
    const client = await PirClient.create(parameters, server.seed, hint);
    const bad = proof.slice();
    bad[77] += 1;
    expect(() => client.verifyCommitment(bad)).toThrow(/Z·A ≠ C·H/);
  });

  test('rejects Z with an entry beyond p·ℓ', async () => {
    const { parameters, server, hint, proof } = await committed(20_000, 'big-z');
    const client = await PirClient.create(parameters, server.seed, hint);
    const bad = proof.slice();
    bad[5] = parameters.plaintextModulus * parameters.rows + 1;
    expect(() => client.verifyCommitment(bad)).toThrow(/‖Z‖∞/);
  });

  test('rejects the hint of a second database presented with the first proof', async () => {
    const first = await committed(20_000, 'first');
    const second = await PirServer.create(
      first.entries.map((value) => 1 - value),
      first.parameters,
      first.server.seed,
    );
    const client = await PirClient.create(first.parameters, first.server.seed, second.hint());
    expect(() => client.verifyCommitment(first.proof)).toThrow(PirVerificationError);
  });

  test('rejects a proof of the wrong size and a hint of the wrong size', async () => {
    const { parameters, server, hint, proof } = await committed(5000, 'sizes');
    const client = await PirClient.create(parameters, server.seed, hint);
    expect(() => client.verifyCommitment(proof.subarray(0, proof.length - 1))).toThrow(
      new RegExp(`expected ${CHALLENGE_ROWS} ×`),
    );
    await expect(PirClient.create(parameters, server.seed, hint.subarray(1))).rejects.toThrow(/hint: expected/);
  });
});

describe('answers from a table other than the committed one', () => {
  test('1,000 trials of flip-label, swap-rows and second-database tampering are all caught', async () => {
    const { parameters, server, hint, proof } = await committed(2 ** 14, 'tamper-base');
    const client = await PirClient.create(parameters, server.seed, hint);
    client.verifyCommitment(proof);
    const trials = 1000;
    const caught = await caughtTampering(client, server, parameters, createRandom('tamper-trials'), trials);
    expect(caught['flip-label'] + caught['swap-rows'] + caught['second-database']).toBe(trials);
    expect(caught['flip-label']).toBe(334);
  });

  test('the same 1,000 tampering trials are all caught once the secret challenge C is installed', async () => {
    const { parameters, server, hint, proof } = await committed(2 ** 14, 'tamper-secret');
    const client = await PirClient.create(parameters, server.seed, hint);
    client.verifyCommitment(proof);
    const seed = new Uint8Array(16).fill(3);
    const { encrypted, state } = client.beginSecretChallenge(seed);
    client.finishSecretChallenge(state, server.challengeHints(seed), server.answerChallenge(encrypted));
    expect(client.secretChallenge).toBe(true);
    const caught = await caughtTampering(client, server, parameters, createRandom('tamper-secret-trials'), 1000);
    expect(caught['flip-label'] + caught['swap-rows'] + caught['second-database']).toBe(1000);
  });

  test('the honest table passes the same checks on 300 queries', async () => {
    const { parameters, entries, server, hint, proof } = await committed(2 ** 14, 'honest-many');
    const client = await PirClient.create(parameters, server.seed, hint);
    client.verifyCommitment(proof);
    for (let index = 0; index < parameters.entryCount; index += 55) {
      const state = client.query(index);
      expect(client.recover(server.answer(state.query, 1), state, index)).toBe(entries[index]);
    }
  });

  test('shifting one row of the answer by Δ (a label change in that row) fails Z·u = C·v', async () => {
    const { parameters, server, hint, proof } = await committed(2 ** 14, 'shift');
    const client = await PirClient.create(parameters, server.seed, hint);
    client.verifyCommitment(proof);
    const state = client.query(100);
    const answer = server.answer(state.query, 1);
    answer[3] = (answer[3] + 2 ** (32 - parameters.elementBits)) >>> 0;
    expect(() => client.recover(answer, state, 100)).toThrow(/Z·u ≠ C·v/);
  });
});

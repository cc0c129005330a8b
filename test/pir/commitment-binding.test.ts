import { randomBytes } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { candidateListDigest } from '../../src/pir/candidate-digest.js';
import { type CommitmentBinding, publicSeeds } from '../../src/pir/commitment-binding.js';
import { choosePirParameters } from '../../src/pir/parameters.js';
import { PirClient } from '../../src/pir/pir-client.js';
import { PirServer } from '../../src/pir/pir-server.js';
import { PirVerificationError } from '../../src/pir/pir-verification-error.js';

const bytes = (count: number) => new Uint8Array(randomBytes(count));

describe('publicSeeds(binding)', () => {
  test(
    'gives two different 16-byte seeds that change with the provider share, the auditor nonce and the ' +
      'candidate digest',
    () => {
      const binding: CommitmentBinding = {
        candidateDigest: bytes(32),
        auditorNonce: bytes(32),
        providerShare: bytes(32),
      };
      const seeds = publicSeeds(binding);
      expect(seeds.matrix.length).toBe(16);
      expect(Buffer.from(seeds.matrix).equals(Buffer.from(seeds.challengeMatrix))).toBe(false);
      expect(Buffer.from(publicSeeds({ ...binding }).matrix).equals(Buffer.from(seeds.matrix))).toBe(true);
      for (const key of ['candidateDigest', 'auditorNonce', 'providerShare'] as const) {
        const changed = { ...binding, [key]: binding[key].map((value, i) => (i === 0 ? value ^ 1 : value)) };
        expect(Buffer.from(publicSeeds(changed).matrix).equals(Buffer.from(seeds.matrix))).toBe(false);
        expect(Buffer.from(publicSeeds(changed).challengeMatrix).equals(Buffer.from(seeds.challengeMatrix))).toBe(
          false,
        );
      }
    },
  );

  test('refuses a binding whose parts are not 32 bytes (a caller bug)', () => {
    expect(() =>
      publicSeeds({ candidateDigest: bytes(31), auditorNonce: bytes(32), providerShare: bytes(32) }),
    ).toThrow(/32-byte/);
  });
});

describe('PirServer.commit(binding) and PirClient.verifyCommitment(proof, binding)', () => {
  const parameters = choosePirParameters({ entryCount: 3000, entryBits: 1 });
  const groups = Uint8Array.from({ length: 3000 }, (_, i) => (i * 7) % 2);
  const entries = Uint8Array.from({ length: 3000 }, (_, i) => (i % 5 === 0 ? 1 : 0));

  async function verify(
    madeFor: CommitmentBinding,
    checkedAs: CommitmentBinding,
    seedOf: CommitmentBinding = checkedAs,
  ) {
    const server = await PirServer.create(entries, parameters);
    const { hint, proof } = server.commit(madeFor);
    const client = await PirClient.create(parameters, publicSeeds(seedOf).matrix, hint);
    client.verifyCommitment(proof, checkedAs);
  }

  test('verifies under the binding it was made for', async () => {
    const binding = {
      candidateDigest: candidateListDigest(null, groups),
      auditorNonce: bytes(32),
      providerShare: bytes(32),
    };
    await expect(verify(binding, binding)).resolves.toBeUndefined();
  });

  test(
    'fails for another nonce, another share or another candidate list, even when A is the one it was made ' + 'with',
    async () => {
      const binding = {
        candidateDigest: candidateListDigest(null, groups),
        auditorNonce: bytes(32),
        providerShare: bytes(32),
      };
      const reordered = candidateListDigest(
        Int32Array.from({ length: 3000 }, (_, i) => 2999 - i),
        groups.slice().reverse(),
      );
      for (const other of [
        { ...binding, auditorNonce: bytes(32) },
        { ...binding, providerShare: bytes(32) },
        { ...binding, candidateDigest: reordered },
      ]) {
        // A from the auditor's own derivation (the provider cannot steer it) ...
        await expect(verify(binding, other)).rejects.toThrow(PirVerificationError);
        // ... and even with the A the commitment was made with: the Fiat-Shamir hash covers the binding.
        await expect(verify(binding, other, binding)).rejects.toThrow(/commitment: Z·A ≠ C·H/);
      }
    },
  );
});

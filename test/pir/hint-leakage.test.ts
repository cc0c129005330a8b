import { describe, expect, test } from 'vitest';
import { databaseFromHint, hintRevealsDatabase, publicMatrixRankModTwo } from '../../src/pir/hint-leakage.js';
import { choosePirParameters } from '../../src/pir/parameters.js';
import { PirServer } from '../../src/pir/pir-server.js';
import { createRandom } from '../../src/util/random.js';

describe('databaseFromHint(parameters, seed, hint): what SimplePIR hint reveals', () => {
  // Paper B's candidate sets: COMPAS 2,778, CCD 13,500, HateDay 36,450 one-bit labels.
  for (const entryCount of [2778, 13_500, 36_450]) {
    test(`recovers every label of a ${entryCount}-candidate table from the hint and the seed of A alone`, async () => {
      const parameters = choosePirParameters({ entryCount, entryBits: 1 });
      expect(parameters.columns).toBeLessThanOrEqual(parameters.lweDimension);
      const random = createRandom(`hint-leak-${entryCount}`);
      const labels = Uint8Array.from({ length: entryCount }, () => (random() < 0.3 ? 1 : 0));
      const server = await PirServer.create(labels, parameters);
      const { seed, hint } = server.commit();
      expect(hintRevealsDatabase(parameters, seed)).toBe(true);
      expect(databaseFromHint(parameters, seed, hint)).toEqual(server.matrix());
    });
  }

  test('claims nothing once m > n (2^24 labels: m = 1456 > n = 1024)', () => {
    const parameters = choosePirParameters({ entryCount: 2 ** 24, entryBits: 1 });
    expect(parameters.columns).toBe(1456);
    expect(hintRevealsDatabase(parameters, new Uint8Array(16))).toBe(false);
  });
});

describe('publicMatrixRankModTwo(parameters, seed)', () => {
  test('is m for the expanded A of a small table (m ≪ n: rank deficiency has probability ≤ 2^(m−n))', () => {
    const parameters = choosePirParameters({ entryCount: 5000, entryBits: 1 });
    expect(publicMatrixRankModTwo(parameters, new Uint8Array(16).fill(3))).toBe(parameters.columns);
  });

  test('is at most n: 48 rows of n = 8 bits have rank 8', () => {
    const parameters = { ...choosePirParameters({ entryCount: 5000, entryBits: 1 }), lweDimension: 8 };
    // 48 rows of 8 bits: rank at most 8.
    expect(publicMatrixRankModTwo(parameters, new Uint8Array(16).fill(5))).toBe(8);
  });
});

import { describe, expect, it } from 'vitest';
import { restoreOrder, restoreScratch, shufflePosition } from '../../src/audit/partial-shuffle.js';
import { createRandom } from '../../src/util/random.js';

function identity(size: number): Int32Array {
  return Int32Array.from({ length: size }, (_, i) => i);
}

describe('shufflePosition(order, swaps, position, random)', () => {
  it('puts each row at each position equally often (chi-square over positions)', () => {
    const size = 10;
    const steps = 4;
    const replicates = 20_000;
    const order = identity(size);
    const swaps = new Int32Array(size);
    const random = createRandom('uniformity');
    const atPosition = Array.from({ length: steps }, () => new Array<number>(size).fill(0));
    const firstPair = new Array<number>(size * size).fill(0);
    for (let r = 0; r < replicates; r++) {
      const rows: number[] = [];
      for (let p = 0; p < steps; p++) rows.push(shufflePosition(order, swaps, p, random));
      for (let p = 0; p < steps; p++) atPosition[p][rows[p]]++;
      firstPair[rows[0] * size + rows[1]]++;
      restoreOrder(order, swaps, steps);
    }
    const expected = replicates / size;
    for (let p = 0; p < steps; p++) {
      const chiSquare = atPosition[p].reduce((sum, count) => sum + (count - expected) ** 2 / expected, 0);
      // 99.9% point of chi-square with 9 df: scipy.stats.chi2.ppf(0.999, 9) = 27.877
      expect(chiSquare).toBeLessThan(27.877);
    }
    const pairExpected = replicates / (size * (size - 1));
    let pairChiSquare = 0;
    for (let a = 0; a < size; a++) {
      for (let b = 0; b < size; b++) {
        if (a === b) expect(firstPair[a * size + b]).toBe(0);
        else pairChiSquare += (firstPair[a * size + b] - pairExpected) ** 2 / pairExpected;
      }
    }
    // 99.9% point with 89 df: scipy.stats.chi2.ppf(0.999, 89) = 135.98
    expect(pairChiSquare).toBeLessThan(135.98);
  });

  it('draws the same rows from the same seed, and restoreOrder returns the identity', () => {
    const draw = (seed: string) => {
      const order = identity(50);
      const swaps = new Int32Array(50);
      const random = createRandom(seed);
      const rows = Array.from({ length: 20 }, (_, p) => shufflePosition(order, swaps, p, random));
      restoreOrder(order, swaps, 20);
      expect([...order]).toEqual([...identity(50)]);
      return rows;
    };
    expect(draw('seed-1')).toEqual(draw('seed-1'));
    expect(draw('seed-1')).not.toEqual(draw('seed-2'));
    expect(new Set(draw('seed-3')).size).toBe(20);
  });
});

describe('restoreScratch(scratch, start, swaps, steps)', () => {
  it('returns an order or packed codes to its start after any number of steps, by copy or by swaps', () => {
    for (const steps of [0, 1, 3, 7, 64, 200]) {
      const order = identity(200);
      const codes = Uint8Array.from(order, (row) => row % 4);
      const startOrder = order.slice();
      const startCodes = codes.slice();
      const swaps = new Int32Array(200);
      const random = createRandom(`restore-${steps}`);
      for (let p = 0; p < steps; p++) {
        swaps[p] = p + Math.floor(random() * (200 - p));
        for (const values of [order, codes]) {
          const held = values[swaps[p]];
          values[swaps[p]] = values[p];
          values[p] = held;
        }
      }
      if (steps >= 7) expect([...order]).not.toEqual([...startOrder]);
      // Below 200 / 16 steps the swaps are undone one by one; from there on the start is copied back.
      restoreScratch(order, startOrder, swaps, steps);
      restoreScratch(codes, startCodes, swaps, steps);
      expect([...order]).toEqual([...startOrder]);
      expect([...codes]).toEqual([...startCodes]);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { BalancedOrder } from '../../src/audit/balanced-order.js';
import { createRandom, type Random } from '../../src/util/random.js';

/** A generator that returns the given numbers in turn. */
function stub(values: number[]): Random {
  let i = 0;
  return () => values[i++];
}

describe('BalancedOrder(group)', () => {
  it(
    'next(random) alternates a, b, a, ... with each group shuffled, then finishes the larger group: an exact ' +
      'permutation',
    () => {
      // Rows of a: 0, 2, 3, 5; of b: 1, 4. By hand, with draws 0.9, 0, 0.5, 0.7, 0.1, 0.3:
      // a at 0: partner 0 + floor(0.9 * 4) = 3 -> row 5 (a rows now 5, 2, 3, 0)
      // b at 0: partner 0 + floor(0 * 2) = 0   -> row 1
      // a at 1: partner 1 + floor(0.5 * 3) = 2 -> row 3 (5, 3, 2, 0)
      // b at 1: partner 1 + floor(0.7 * 1) = 1 -> row 4
      // a at 2: partner 2 + floor(0.1 * 2) = 2 -> row 2; b is exhausted
      // a at 3: partner 3 + floor(0.3 * 1) = 3 -> row 0
      const order = new BalancedOrder(Uint8Array.from([0, 1, 0, 0, 1, 0]));
      const random = stub([0.9, 0, 0.5, 0.7, 0.1, 0.3]);
      expect(Array.from({ length: 6 }, () => order.next(random))).toEqual([5, 1, 3, 4, 2, 0]);
      expect(order.remaining).toBe(0);
    },
  );

  it("next(random) puts every row of a group at each of that group's positions equally often (chi-square)", () => {
    const group = Uint8Array.from([0, 0, 1, 0, 1, 0, 0, 1, 0]);
    const rowsA = [0, 1, 3, 5, 6, 8];
    const rowsB = [2, 4, 7];
    const order = new BalancedOrder(group);
    const random = createRandom('balanced-uniformity');
    const replicates = 12_000;
    const firstA = new Map<number, number>();
    const secondA = new Map<number, number>();
    const firstB = new Map<number, number>();
    for (let r = 0; r < replicates; r++) {
      const rows = Array.from({ length: 9 }, () => order.next(random));
      order.restore();
      // Queries 1, 3, 5 are a's first three; 2, 4, 6 are b's.
      expect(rows.filter((_, i) => i % 2 === 1 && i < 6).every((row) => group[row] === 1)).toBe(true);
      firstA.set(rows[0], (firstA.get(rows[0]) ?? 0) + 1);
      secondA.set(rows[2], (secondA.get(rows[2]) ?? 0) + 1);
      firstB.set(rows[1], (firstB.get(rows[1]) ?? 0) + 1);
    }
    const chiSquare = (counts: Map<number, number>, rows: number[]) => {
      const expected = replicates / rows.length;
      return rows.reduce((sum, row) => sum + ((counts.get(row) ?? 0) - expected) ** 2 / expected, 0);
    };
    // 99.9% points: scipy.stats.chi2.ppf(0.999, 5) = 20.515, chi2.ppf(0.999, 2) = 13.816
    expect(chiSquare(firstA, rowsA)).toBeLessThan(20.515);
    expect(chiSquare(secondA, rowsA)).toBeLessThan(20.515);
    expect(chiSquare(firstB, rowsB)).toBeLessThan(13.816);
  });

  it(
    'restore() puts the scratch back: the same seed gives the same order again, and every row comes exactly ' + 'once',
    () => {
      const group = Uint8Array.from({ length: 40 }, (_, i) => (i % 5 === 0 ? 1 : 0));
      const order = new BalancedOrder(group);
      const draw = () => {
        const random = createRandom('replay');
        const rows = Array.from({ length: 40 }, () => order.next(random));
        order.restore();
        return rows;
      };
      const first = draw();
      expect(draw()).toEqual(first);
      expect([...first].sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i));
      // 8 rows of b: they are queries 2, 4, ..., 16; the rest are a.
      expect(first.slice(0, 16).map((row) => group[row])).toEqual(Array.from({ length: 16 }, (_, i) => i % 2));
      expect(first.slice(16).every((row) => group[row] === 0)).toBe(true);
    },
  );

  it('BalancedOrder of a one-group pool simply shuffles that group', () => {
    const order = new BalancedOrder(new Uint8Array(5));
    const random = createRandom('one-group');
    const rows = Array.from({ length: 5 }, () => order.next(random));
    expect([...rows].sort()).toEqual([0, 1, 2, 3, 4]);
  });
});

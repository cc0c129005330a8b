import { CONTINUE, type SequentialTest } from '../../src/stats/sequential-test.js';
import type { Random } from '../../src/util/random.js';

/** A two-group pool: values of group a then of group b. */
export interface Pool {
  readonly name: string;
  readonly a: Float64Array;
  readonly b: Float64Array;
  readonly integer: boolean;
}

export const decisions = (size: number, ones: number) =>
  Float64Array.from({ length: size }, (_, i) => (i < ones ? 1 : 0));
/** size scores spread evenly around `mean` (half-width `spread`), so their mean is `mean` up to rounding. */
export const scores = (size: number, mean: number, spread: number) =>
  Float64Array.from({ length: size }, (_, i) => mean + spread * ((2 * i) / (size - 1) - 1));

/** Pools on the boundary |gap| = 0.1 exactly (counts: 0.2 vs 0.3 is 60/300 vs 60/200), where both error bounds apply.
 * */
export function boundaryPools(): Pool[] {
  return [
    { name: 'b above a by 0.1 at rates 0 and 0.1', a: decisions(300, 0), b: decisions(200, 20), integer: true },
    { name: 'b above a by 0.1 at rates 0.2 and 0.3', a: decisions(300, 60), b: decisions(200, 60), integer: true },
    { name: 'b above a by 0.1 at rates 0.45 and 0.55', a: decisions(300, 135), b: decisions(200, 110), integer: true },
    { name: 'b above a by 0.1 at rates 0.9 and 1', a: decisions(300, 270), b: decisions(200, 200), integer: true },
    { name: 'a above b by 0.1 at rates 0.3 and 0.2', a: decisions(300, 90), b: decisions(200, 40), integer: true },
    { name: 'scores with means 0.4 and 0.5', a: scores(300, 0.4, 0.35), b: scores(200, 0.5, 0.2), integer: false },
  ];
}

/** Feeds the pool to the test in a uniformly random order (or alternating groups, each shuffled) until it decides. */
export function runToVerdict(test: SequentialTest, pool: Pool, order: 'random' | 'balanced', random: Random): number {
  const a = Float64Array.from(pool.a);
  const b = Float64Array.from(pool.b);
  let leftA = a.length;
  let leftB = b.length;
  test.reset();
  let turn = 0;
  while (leftA + leftB > 0) {
    let group: number;
    if (order === 'balanced') {
      group = turn;
      if ((group === 0 ? leftA : leftB) === 0) group = 1 - group;
      turn = 1 - group;
    } else {
      group = random() * (leftA + leftB) < leftB ? 1 : 0;
    }
    const values = group === 0 ? a : b;
    const left = group === 0 ? leftA-- : leftB--;
    const j = Math.floor(random() * left);
    const value = values[j];
    values[j] = values[left - 1];
    values[left - 1] = value;
    test.add(group, value);
    if (test.verdict !== CONTINUE) return test.verdict;
  }
  return CONTINUE;
}

import { describe, expect, it } from 'vitest';
import { BernoulliGlrStream } from '../../src/stats/bernoulli-glr-stream.js';
import { GaussianGlrStream } from '../../src/stats/gaussian-glr-stream.js';
import { GlrThresholdTest } from '../../src/stats/glr-threshold-test.js';
import { ACCEPT, CONTINUE, REJECT } from '../../src/stats/sequential-test.js';

/** Feeds the rows (group, value) in order and returns the verdict after each. */
function verdicts(test: GlrThresholdTest, rows: readonly (readonly [number, number])[]): number[] {
  test.reset();
  return rows.map(([group, value]) => {
    test.add(group, value);
    return test.verdict;
  });
}

// A 20-row pool: group a 8/10 positive, group b 7/10 (gap -0.1), and the same with b 2/10 (gap -0.6).
const rowsOf = (positivesB: number) => [
  ...Array.from({ length: 10 }, (_, i) => [0, i < 8 ? 1 : 0] as const),
  ...Array.from({ length: 10 }, (_, i) => [1, i < positivesB ? 1 : 0] as const),
];

describe('GlrThresholdTest(stream, tolerance, upper, lower, minimum, exhaustion)', () => {
  it('without an exhaustion rule stays inconclusive when the pool runs out (paper A section 3.5)', () => {
    const test = new GlrThresholdTest(new BernoulliGlrStream(), 0.05, 1e6, -1e6);
    expect(verdicts(test, rowsOf(7)).at(-1)).toBe(CONTINUE);
  });

  it('with one decides the known gap exactly once every row is read, and not a row earlier', () => {
    const rule = { countA: 10, countB: 10, values: 'counts' as const };
    const test = new GlrThresholdTest(new BernoulliGlrStream(), 0.05, 1e6, -1e6, 1, rule);
    const compliantAtTolerance = new GlrThresholdTest(new BernoulliGlrStream(), 0.1, 1e6, -1e6, 1, rule);
    const violating = verdicts(test, rowsOf(7));
    expect(violating.slice(0, -1).every((verdict) => verdict === CONTINUE)).toBe(true);
    expect(violating.at(-1)).toBe(REJECT); // |0.7 - 0.8| = 0.1 > 0.05
    // |0.7 - 0.8| is 0.09999999999999998 in doubles, exactly the tolerance on counts: compliant.
    expect(verdicts(compliantAtTolerance, rowsOf(7)).at(-1)).toBe(ACCEPT);
    const wide = new GlrThresholdTest(new BernoulliGlrStream(), 0.65, 1e6, -1e6, 1, rule);
    expect(verdicts(wide, rowsOf(2)).at(-1)).toBe(ACCEPT); // 0.6 <= 0.65
  });

  it('decides means of real values the same way, even when the variance never lets the GLR start', () => {
    const rule = { countA: 3, countB: 3, values: 'means' as const };
    const test = new GlrThresholdTest(new GaussianGlrStream(), 0.05, 4, -2, 1, rule);
    const constant = [
      [0, 0.2],
      [0, 0.2],
      [0, 0.2],
      [1, 0.5],
      [1, 0.5],
      [1, 0.5],
    ] as const;
    expect(verdicts(test, constant)).toEqual([CONTINUE, CONTINUE, CONTINUE, CONTINUE, CONTINUE, REJECT]);
    const close = constant.map(([group, value]) => [group, group === 1 ? 0.22 : value] as const);
    expect(verdicts(test, close).at(-1)).toBe(ACCEPT);
  });
});

import { describe, expect, it } from 'vitest';
import { GaussianGlrStream } from '../../src/stats/gaussian-glr-stream.js';
import type { GlrStream } from '../../src/stats/glr-stream.js';
import { GlrThresholdTest, NAN_STATISTIC } from '../../src/stats/glr-threshold-test.js';
import { GuardedGaussianGlrStream, varianceFloor } from '../../src/stats/guarded-gaussian-glr-stream.js';

describe('GuardedGaussianGlrStream', () => {
  it('varianceFloor(tolerance) is (tolerance / 100)²', () => {
    expect(varianceFloor(0.05)).toBeCloseTo(2.5e-7, 20);
    expect(varianceFloor(0.2)).toBeCloseTo(4e-6, 20);
  });

  it('starts only once the pooled variance reaches the floor; the statistic is GaussianGlrStream’s', () => {
    const guarded = new GuardedGaussianGlrStream();
    const plain = new GaussianGlrStream();
    guarded.reset(0.05);
    plain.reset(0.05);
    // Values 1e-6 apart: a positive pooled variance (5e-13) that paper A's start accepts, far below 2.5e-7.
    for (const [group, value] of [
      [0, 0.5],
      [0, 0.500001],
      [1, 0.7],
      [1, 0.700001],
    ] as const) {
      guarded.add(group, value);
      plain.add(group, value);
    }
    expect(plain.ready).toBe(true);
    expect(Math.abs(plain.statistic)).toBeGreaterThan(10); // the explosion the guard is for
    expect(guarded.ready).toBe(false);
    expect(guarded.statistic).toBe(plain.statistic);
    guarded.add(0, 0.45); // now RSS / (n - 2) = 0.00125 / 3 >= 2.5e-7
    expect(guarded.ready).toBe(true);
  });

  it('an empty group or a reset stream is not ready', () => {
    const guarded = new GuardedGaussianGlrStream();
    guarded.reset(0.05);
    guarded.add(0, 0.1);
    guarded.add(0, 0.9);
    expect(guarded.ready).toBe(false);
    guarded.reset(0.05);
    expect(guarded.ready).toBe(false);
  });
});

describe('GlrThresholdTest with a NaN statistic', () => {
  it('throws NAN_STATISTIC: an error, never an inconclusive', () => {
    const broken: GlrStream = { statistic: Number.NaN, ready: true, reset: () => {}, add: () => {} };
    const test = new GlrThresholdTest(broken, 0.05, 3, -2);
    expect(() => test.add(0, 1)).toThrow(NAN_STATISTIC);
  });
});

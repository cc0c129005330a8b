import { describe, expect, it } from 'vitest';
import { frequencyStandardError, sampleMoments } from '../../src/report/monte-carlo-error.js';

describe('sampleMoments(values)', () => {
  it('sampleMoments([2,4,4,4,5,5,7,9]) has mean 5 and sample std √(32/7)', () => {
    // numpy: x=[2,4,4,4,5,5,7,9]; x.mean()=5.0, x.std(ddof=1)=2.138089935299395
    const moments = sampleMoments([2, 4, 4, 4, 5, 5, 7, 9]);
    expect(moments.count).toBe(8);
    expect(moments.mean).toBe(5);
    expect(moments.standardDeviation).toBeCloseTo(2.138089935299395, 14);
    expect(moments.standardError).toBeCloseTo(2.138089935299395 / Math.sqrt(8), 14);
  });
  it('sampleMoments([]) is NaN everywhere with count 0', () => {
    const moments = sampleMoments([]);
    expect(moments.count).toBe(0);
    expect(moments.mean).toBeNaN();
    expect(moments.standardDeviation).toBeNaN();
  });
  it('sampleMoments([x]) has mean x and NaN spread (one observation)', () => {
    const moments = sampleMoments([42]);
    expect(moments.mean).toBe(42);
    expect(moments.standardDeviation).toBeNaN();
    expect(moments.standardError).toBeNaN();
  });
  it('sampleMoments skips NaN and ±Infinity', () => {
    const moments = sampleMoments([1, Number.NaN, 3, Number.POSITIVE_INFINITY]);
    expect(moments.count).toBe(2);
    expect(moments.mean).toBe(2);
    expect(moments.standardDeviation).toBeCloseTo(Math.SQRT2, 14);
  });
  it('sampleMoments keeps precision around 1e9 (Welford): variance of 1e9+{4,7,13,16} is 30', () => {
    // deviations from the mean 1e9+10 are -6,-3,3,6: sum of squares 90, /3 = 30
    const moments = sampleMoments([1e9 + 4, 1e9 + 7, 1e9 + 13, 1e9 + 16]);
    expect(moments.standardDeviation ** 2).toBeCloseTo(30, 6);
  });
  it('sampleMoments of a constant has zero spread', () => {
    expect(sampleMoments([3, 3, 3]).standardDeviation).toBe(0);
  });
});

describe('frequencyStandardError(frequency, count)', () => {
  it('frequencyStandardError(0.75, 20) = √(0.75·0.25/20) ≈ 0.0968', () => {
    // python: (0.75*0.25/20)**0.5 = 0.09682458365518543
    expect(frequencyStandardError(0.75, 20)).toBeCloseTo(0.09682458365518543, 14);
  });
  it('frequencyStandardError is 0 for frequencies 0 and 1, NaN for no replicates', () => {
    expect(frequencyStandardError(0, 20)).toBe(0);
    expect(frequencyStandardError(1, 20)).toBe(0);
    expect(frequencyStandardError(0.5, 0)).toBeNaN();
  });
});

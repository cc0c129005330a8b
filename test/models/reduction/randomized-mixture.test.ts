import { describe, expect, it } from 'vitest';
import { clampedLogit, deployMixture, mixtureProbability } from '../../../src/models/reduction/randomized-mixture.js';

describe('mixtureProbability(decisionsPerModel)', () => {
  it('averages the models decisions row by row', () => {
    const p = mixtureProbability([Uint8Array.from([1, 0, 1]), Uint8Array.from([1, 0, 0]), Uint8Array.from([0, 0, 1])]);
    expect(Array.from(p)).toEqual([2 / 3, 0, 2 / 3]);
  });
});

describe('deployMixture(probability, rowIds, seed)', () => {
  const rows = 20_000;
  const probability = new Float64Array(rows).fill(0.3);
  const ids = Int32Array.from({ length: rows }, (_, i) => i);

  it('draws each decision with the mixture probability (binomial within 5 sd)', () => {
    const decisions = deployMixture(probability, ids, 'seed');
    const ones = decisions.reduce((sum, d) => sum + d, 0);
    expect(Math.abs(ones - 0.3 * rows)).toBeLessThan(5 * Math.sqrt(rows * 0.3 * 0.7));
  });

  it('gives a row the same decision whatever its position, and respects 0 and 1', () => {
    const all = deployMixture(probability, ids, 'seed');
    const reversed = deployMixture(probability.slice(0, 100), ids.slice(0, 100).reverse(), 'seed');
    for (let i = 0; i < 100; i++) expect(reversed[i]).toBe(all[99 - i]);
    expect(Array.from(deployMixture(Float64Array.from([0, 1]), Int32Array.from([5, 6]), 'x'))).toEqual([0, 1]);
  });
});

describe('clampedLogit(p)', () => {
  it('is log(p / (1 - p)) inside the clamp and finite at 0 and 1', () => {
    expect(clampedLogit(0.5)).toBe(0);
    expect(clampedLogit(0.8)).toBeCloseTo(Math.log(4), 12);
    expect(clampedLogit(1)).toBeCloseTo(Math.log((1 - 1e-6) / 1e-6), 9);
    expect(clampedLogit(0)).toBeCloseTo(-Math.log((1 - 1e-6) / 1e-6), 9);
  });
});

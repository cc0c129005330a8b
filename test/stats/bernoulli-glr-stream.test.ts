import { describe, expect, it } from 'vitest';
import { bernoulliGlrKernel } from '../../src/stats/bernoulli-glr.js';
import { BernoulliGlrStream } from '../../src/stats/bernoulli-glr-stream.js';
import { createRandom } from '../../src/util/random.js';
import { bernoulliGlrReference } from './bernoulli-glr-reference.js';

function checkStream(rateA: number, rateB: number, tolerance: number, length: number, seed: string): number {
  const random = createRandom(seed);
  const stream = new BernoulliGlrStream();
  stream.reset(tolerance);
  const counts = [0, 0];
  const positives = [0, 0];
  let worst = 0;
  for (let t = 0; t < length; t++) {
    const group = random() < 0.4 ? 1 : 0;
    const value = random() < (group === 1 ? rateB : rateA) ? 1 : 0;
    counts[group]++;
    positives[group] += value;
    stream.add(group, value);
    if (counts[0] === 0 || counts[1] === 0) {
      expect(stream.ready).toBe(false);
      expect(stream.statistic).toBe(0);
      continue;
    }
    expect(stream.ready).toBe(true);
    const exact = bernoulliGlrKernel(counts[0], positives[0], counts[1], positives[1], tolerance);
    // The stream's statistic is a function of the counts alone: the kernel's, bit for bit.
    if (!Object.is(stream.statistic, exact)) throw new Error(`update ${t}: ${stream.statistic} against ${exact}`);
    const error = Math.abs(stream.statistic - exact) / (counts[0] + counts[1]);
    worst = Math.max(worst, error);
    if (t % 97 === 0) {
      const slow = bernoulliGlrReference(counts[0], positives[0], counts[1], positives[1], tolerance);
      expect(Math.abs(stream.statistic - slow)).toBeLessThanOrEqual(1e-13 * (counts[0] + counts[1]));
    }
  }
  return worst;
}

describe('BernoulliGlrStream.add(group, value)', () => {
  it('keeps the exact statistic of the running counts after every observation', () => {
    const settings: Array<[number, number, number]> = [
      [0.3, 0.33, 0.05],
      [0.3, 0.42, 0.05],
      [0.5, 0.45, 0.1],
      [0.02, 0.01, 0.05],
      [0, 0, 0.05],
      [1, 1, 0.2],
      [0, 1, 0.999],
      [0.9, 0.2, 1e-6],
      [0.4, 0.4, 0.5],
    ];
    settings.forEach(([rateA, rateB, tolerance], index) => {
      const worst = checkStream(rateA, rateB, tolerance, 3000, `stream-${index}`);
      expect(worst).toBe(0);
    });
  });

  it('gives the same statistic, to the bit, for the same counts reached in another order', () => {
    const random = createRandom('orders');
    for (let trial = 0; trial < 200; trial++) {
      const rows = Array.from({ length: 50 + Math.floor(random() * 3000) }, () => {
        const group = random() < 0.4 ? 1 : 0;
        return [group, random() < (group === 1 ? 0.45 : 0.38) ? 1 : 0] as const;
      });
      const reversed = [...rows].reverse();
      const forward = new BernoulliGlrStream();
      const backward = new BernoulliGlrStream();
      forward.reset(0.05);
      backward.reset(0.05);
      for (const [group, value] of rows) forward.add(group, value);
      for (const [group, value] of reversed) backward.add(group, value);
      expect(Object.is(forward.statistic, backward.statistic), `trial ${trial}`).toBe(true);
    }
  });

  it('reset(tolerance) starts a fresh stream with the new tolerance', () => {
    const stream = new BernoulliGlrStream();
    stream.reset(0.05);
    for (let i = 0; i < 50; i++) stream.add(i % 2, i % 3 === 0 ? 1 : 0);
    stream.reset(0.2);
    expect(stream.ready).toBe(false);
    expect(stream.statistic).toBe(0);
    stream.add(0, 1);
    stream.add(1, 0);
    expect(stream.statistic).toBeCloseTo(bernoulliGlrKernel(1, 1, 1, 0, 0.2), 15);
    expect(stream.counts).toEqual({ countA: 1, positivesA: 1, countB: 1, positivesB: 0 });
  });
});

import { describe, expect, it } from 'vitest';
import { applyBins, fitBinThresholds } from '../../../src/models/trees/quantile-binning.js';

const allRows = (n: number) => Int32Array.from({ length: n }, (_, i) => i);

describe('fitBinThresholds(features, columns, rows, maxBins)', () => {
  it('puts edges at midpoints between distinct values when there are at most maxBins of them', () => {
    const features = Float64Array.from([3, 1, 1, 7, 3, 10]);
    const binning = fitBinThresholds(features, 1, allRows(6), 255);
    expect(Array.from(binning.thresholds[0])).toEqual([2, 5, 8.5]);
    expect(binning.binCount[0]).toBe(4);
  });

  it('uses midpoint percentiles when a feature has more distinct values than maxBins', () => {
    // Reference: numpy 1.x, v = [(i*i) % 1009 for i in range(3000)],
    // np.unique(np.percentile(v, np.linspace(0, 100, 256)[1:-1], method='midpoint'))
    // has 254 edges: 2, 4, 6, ..., [100] = 402, [-1] = 1006.5.
    const features = Float64Array.from({ length: 3000 }, (_, i) => (i * i) % 1009);
    const edges = fitBinThresholds(features, 1, allRows(3000), 255).thresholds[0];
    expect(edges.length).toBe(254);
    expect(Array.from(edges.subarray(0, 3))).toEqual([2, 4, 6]);
    expect(edges[100]).toBe(402);
    expect(edges[253]).toBe(1006.5);
  });

  it('bins only the listed rows and each column separately', () => {
    const features = Float64Array.from([0, 5, 1, 6, 2, 7, 100, 100]);
    const binning = fitBinThresholds(features, 2, Int32Array.from([0, 1, 2]), 255);
    expect(Array.from(binning.thresholds[0])).toEqual([0.5, 1.5]);
    expect(Array.from(binning.thresholds[1])).toEqual([5.5, 6.5]);
  });
});

describe('applyBins(features, columns, rows, binning)', () => {
  it('maps x to the number of edges strictly below it (edge values go to the lower bin), column-major', () => {
    const binning = {
      thresholds: [Float64Array.from([1, 2]), Float64Array.from([0])],
      binCount: Int32Array.from([3, 2]),
    };
    const features = Float64Array.from([0.5, -1, 1, 0, 1.5, 3, 2, Number.NaN, 9, 1]);
    const bins = applyBins(features, 2, allRows(5), binning);
    expect(Array.from(bins)).toEqual([0, 0, 1, 1, 2, 0, 0, 1, 1, 1]);
  });
});

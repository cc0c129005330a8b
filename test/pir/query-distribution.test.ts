import { describe, expect, test } from 'vitest';
import { sampleDiscreteGaussian } from '../../src/pir/discrete-gaussian.js';
import { entryLocation } from '../../src/pir/packing.js';
import { choosePirParameters, scalingFactor } from '../../src/pir/parameters.js';
import { PirClient } from '../../src/pir/pir-client.js';
import { PirServer } from '../../src/pir/pir-server.js';

const BINS = 8;
/**
 * scipy.stats.chi2.isf(1e-6, 7) = 40.52183: the two-sample test's critical value for 8
 * bins at α = 10^-6 (the queries use fresh node:crypto randomness on every run, so a
 * small α keeps the test from failing by chance).
 */
const CRITICAL_7_DOF = 40.521831234179864;

/** Histogram of the top 3 bits of u[column] over the queries. */
function histogram(queries: Uint32Array[], column: number): number[] {
  const counts = new Array(BINS).fill(0);
  for (const query of queries) counts[query[column] >>> 29]++;
  return counts;
}

/** Pearson's chi-square statistic of a 2 × BINS contingency table (equal sample sizes). */
function twoSampleChiSquare(first: number[], second: number[]): number {
  const total = first.reduce((a, b) => a + b, 0) + second.reduce((a, b) => a + b, 0);
  let statistic = 0;
  for (let bin = 0; bin < BINS; bin++) {
    const column = first[bin] + second[bin];
    if (column === 0) continue;
    for (const [row, rowTotal] of [
      [first[bin], first.reduce((a, b) => a + b, 0)],
      [second[bin], second.reduce((a, b) => a + b, 0)],
    ]) {
      const expected = (column * rowTotal) / total;
      statistic += (row - expected) ** 2 / expected;
    }
  }
  return statistic;
}

describe('PirClient.query(index): the query does not depend on the index', () => {
  test(
    'u[c] has the same distribution whether the index lies in column c or elsewhere (chi-square, α = ' + '10^-6)',
    async () => {
      const parameters = choosePirParameters({ entryCount: 2 ** 14, entryBits: 1 });
      const server = await PirServer.create(new Array(2 ** 14).fill(0), parameters);
      const client = await PirClient.create(parameters, server.seed, server.hint());
      const inFirstColumn = 0;
      const inLastColumn = parameters.entryCount - 1;
      expect(entryLocation(inFirstColumn, parameters).column).toBe(0);
      expect(entryLocation(inLastColumn, parameters).column).not.toBe(0);
      const trials = 800;
      const targeted = Array.from({ length: trials }, () => client.query(inFirstColumn).query);
      const elsewhere = Array.from({ length: trials }, () => client.query(inLastColumn).query);
      const statistic = twoSampleChiSquare(histogram(targeted, 0), histogram(elsewhere, 0));
      expect(statistic).toBeLessThan(CRITICAL_7_DOF);
    },
  );

  test('control: the same test detects a leaky query without the mask A·s (u = e + Δ·1_c)', () => {
    const parameters = choosePirParameters({ entryCount: 2 ** 14, entryBits: 1 });
    const delta = scalingFactor(parameters);
    const leaky = (targeted: boolean) => {
      const query = sampleDiscreteGaussian(parameters.columns);
      if (targeted) query[0] = (query[0] + delta) >>> 0;
      return query;
    };
    const trials = 800;
    const targeted = Array.from({ length: trials }, () => leaky(true));
    const elsewhere = Array.from({ length: trials }, () => leaky(false));
    // Δ = 2^24 keeps the top 3 bits at 0, but negative errors wrap to bin 7: the
    // split between bins 0 and 7 differs (about all in bin 0 vs about half in each).
    expect(twoSampleChiSquare(histogram(targeted, 0), histogram(elsewhere, 0))).toBeGreaterThan(CRITICAL_7_DOF);
  });
});

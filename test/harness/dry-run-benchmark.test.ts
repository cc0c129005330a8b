import { describe, expect, it } from 'vitest';
import { benchmarkRunnerDry } from '../../src/harness/dry-run-benchmark.js';

describe('benchmarkRunnerDry(replicates)', () => {
  it(
    'runs the quickstart grid through plan, checkpoints and results writer without audits, and reports the peak ' +
      'RSS',
    async () => {
      const figures = await benchmarkRunnerDry(1_000);
      // ⌈1000 / 12⌉ = 84 replicates per cell in chunks of 50: 12 × 2 chunks.
      expect(figures).toMatchObject({ replicates: 1_008, cells: 12, chunks: 24 });
      expect(figures.resultsBytes).toBeGreaterThan(1_008 * 100);
      expect(figures.peakRssMB).toBeGreaterThan(0);
      expect(figures.workload).toMatch(
        /^the quickstart grid \(12 cells, chunks of 50\) with 84 replicates per cell, no audits/,
      );
    },
  );
});

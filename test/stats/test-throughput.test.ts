import { describe, expect, it } from 'vitest';
import { measureTestThroughput } from '../../src/stats/test-throughput.js';
import { createRandom } from '../../src/util/random.js';

describe('measureTestThroughput(test, updates, runs, random, clocks)', () => {
  it('reports the rate from the clocks it is given and a checksum that depends only on the seed', () => {
    let cpu = 0;
    let wall = 0;
    const clocks = { cpuSeconds: () => (cpu += 0.5), wallSeconds: () => (wall += 1) };
    const first = measureTestThroughput('betting', 8000, 3, createRandom('bench'), clocks);
    // Each timed run reads each clock twice: 0.5 s of CPU and 1 s of wall per run.
    expect(first.updatesPerSecond).toBe(8000 / 0.5);
    expect(first.wallUpdatesPerSecond).toBe(8000);
    const again = measureTestThroughput('betting', 8000, 3, createRandom('bench'), clocks);
    expect(again.checksum).toBe(first.checksum);
    expect(measureTestThroughput('confidence-sequence', 4000, 1, createRandom('bench'), clocks).test).toBe(
      'confidence-sequence',
    );
  });
});

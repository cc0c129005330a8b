import type { Random } from '../util/random.js';
import { GapConfidenceSequenceTest } from './gap-confidence-sequence-test.js';
import type { BenchmarkClocks } from './glr-throughput.js';
import { syntheticGlrStream, THROUGHPUT_WORKLOAD } from './glr-throughput.js';
import type { SequentialTest } from './sequential-test.js';
import { TwoSampleBettingTest } from './two-sample-betting-test.js';

/** What measureTestThroughput measured (the shape of GlrThroughput, for `bench glr`'s table). */
export interface TestThroughput {
  readonly test: 'betting' | 'confidence-sequence';
  /** Observations folded in (the test's verdict brought up to date) per CPU second, median run. */
  readonly updatesPerSecond: number;
  readonly wallUpdatesPerSecond: number;
  readonly updates: number;
  readonly runs: number;
  /** Sum of the verdicts, so the work cannot be optimised away. */
  readonly checksum: number;
}

function runOnce(test: SequentialTest, group: Uint8Array, value: Float64Array, segment: number): number {
  let checksum = 0;
  for (let start = 0; start < group.length; start += segment) {
    test.reset();
    const end = Math.min(group.length, start + segment);
    for (let i = start; i < end; i++) {
      test.add(group[i], value[i]);
      checksum += test.verdict;
    }
  }
  return checksum;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/**
 * measureTestThroughput(test, updates, runs, random, clocks) times the betting test (or the
 * confidence-sequence test) on `bench glr`'s Bernoulli workload (syntheticGlrStream: segments
 * of 4000 observations, one audit each, gaps 0 to 0.15 around tolerance 0.05, 40% of rows in
 * group b), fed on past its verdicts so every update costs a full one; pools of 8000 rows per
 * group (no group is exhausted within a segment); alpha 0.05, beta 0.2, proportional units.
 * Median rates by CPU and wall time after one warm-up pass, comparable with
 * measureGlrThroughput('bernoulli', ...). O(updates x runs).
 */
export function measureTestThroughput(
  test: 'betting' | 'confidence-sequence',
  updates: number,
  runs: number,
  random: Random,
  clocks: BenchmarkClocks,
): TestThroughput {
  const w = THROUGHPUT_WORKLOAD;
  const { group, value } = syntheticGlrStream('bernoulli', updates, random);
  const size = 2 * w.segmentLength;
  const instance: SequentialTest =
    test === 'betting'
      ? new TwoSampleBettingTest({
          countA: size,
          countB: size,
          tolerance: w.tolerance,
          alpha: 0.05,
          beta: 0.2,
          units: 'proportional',
          integerValues: true,
        })
      : new GapConfidenceSequenceTest(size, size, w.tolerance, 0.05, 0.2, true);
  let checksum = runOnce(instance, group, value, w.segmentLength);
  const cpuRates: number[] = [];
  const wallRates: number[] = [];
  for (let r = 0; r < runs; r++) {
    const cpuStarted = clocks.cpuSeconds();
    const wallStarted = clocks.wallSeconds();
    checksum = runOnce(instance, group, value, w.segmentLength);
    wallRates.push(updates / (clocks.wallSeconds() - wallStarted));
    cpuRates.push(updates / (clocks.cpuSeconds() - cpuStarted));
  }
  return { test, updatesPerSecond: median(cpuRates), wallUpdatesPerSecond: median(wallRates), updates, runs, checksum };
}

import { type Random, standardNormal } from '../util/random.js';
import { BernoulliGlrStream } from './bernoulli-glr-stream.js';
import { GaussianGlrStream } from './gaussian-glr-stream.js';
import type { GlrStream } from './glr-stream.js';

/** What measureGlrThroughput measured. */
export interface GlrThroughput {
  readonly family: 'bernoulli' | 'gaussian';
  /**
   * Observations folded in, each with the exact signed statistic brought up to date, per
   * second of the process CPU time (median run): the one-core rate, robust to other
   * processes sharing the machine.
   */
  readonly updatesPerSecond: number;
  /** The same per second of wall-clock time (lower when the machine is busy). */
  readonly wallUpdatesPerSecond: number;
  readonly updates: number;
  readonly runs: number;
  /** A checksum of the statistics (sum over the stream), so the work cannot be optimised away. */
  readonly checksum: number;
}

/** The synthetic workload: audit-length segments whose group gaps straddle the tolerance. */
export const THROUGHPUT_WORKLOAD = {
  segmentLength: 4000,
  tolerance: 0.05,
  rateA: 0.3,
  gaps: [0, 0.03, 0.05, 0.07, 0.15],
  shareOfGroupB: 0.4,
  scoreSpread: 0.15,
} as const;

/**
 * syntheticGlrStream(family, updates, random) draws the benchmark's observations up
 * front: segments of 4000 (one audit's budget) cycling through group gaps 0, 0.03, 0.05,
 * 0.07, 0.15 around tolerance 0.05 (both sides of the test, cold starts at each segment),
 * 40% of rows in group b; Bernoulli values 0/1, Gaussian values rate + 0.15 N(0, 1).
 * O(updates).
 */
export function syntheticGlrStream(
  family: 'bernoulli' | 'gaussian',
  updates: number,
  random: Random,
): { group: Uint8Array; value: Float64Array } {
  const w = THROUGHPUT_WORKLOAD;
  const group = new Uint8Array(updates);
  const value = new Float64Array(updates);
  for (let i = 0; i < updates; i++) {
    const gap = w.gaps[Math.floor(i / w.segmentLength) % w.gaps.length];
    const g = random() < w.shareOfGroupB ? 1 : 0;
    const rate = g === 1 ? w.rateA + gap : w.rateA;
    group[i] = g;
    value[i] = family === 'bernoulli' ? (random() < rate ? 1 : 0) : rate + w.scoreSpread * standardNormal(random);
  }
  return { group, value };
}

function runOnce(
  stream: GlrStream,
  group: Uint8Array,
  value: Float64Array,
  segment: number,
  tolerance: number,
): number {
  let checksum = 0;
  for (let start = 0; start < group.length; start += segment) {
    stream.reset(tolerance);
    const end = Math.min(group.length, start + segment);
    for (let i = start; i < end; i++) {
      stream.add(group[i], value[i]);
      checksum += stream.statistic;
    }
  }
  return checksum;
}

/** The clocks a measurement reads, in seconds: CPU time of the calling thread and wall time. */
export interface BenchmarkClocks {
  readonly cpuSeconds: () => number;
  readonly wallSeconds: () => number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/**
 * measureGlrThroughput(family, updates, runs, random, clocks) times `runs` passes of the
 * incremental GLR (BernoulliGlrStream or GaussianGlrStream) over a synthetic stream of
 * `updates` observations on the calling thread (after one warm-up pass) and returns the
 * median rates by CPU time and by wall time. O(updates x runs).
 */
export function measureGlrThroughput(
  family: 'bernoulli' | 'gaussian',
  updates: number,
  runs: number,
  random: Random,
  clocks: BenchmarkClocks,
): GlrThroughput {
  const { group, value } = syntheticGlrStream(family, updates, random);
  const stream: GlrStream = family === 'bernoulli' ? new BernoulliGlrStream() : new GaussianGlrStream();
  const w = THROUGHPUT_WORKLOAD;
  let checksum = runOnce(stream, group, value, w.segmentLength, w.tolerance);
  const cpuRates: number[] = [];
  const wallRates: number[] = [];
  for (let r = 0; r < runs; r++) {
    const cpuStarted = clocks.cpuSeconds();
    const wallStarted = clocks.wallSeconds();
    checksum = runOnce(stream, group, value, w.segmentLength, w.tolerance);
    wallRates.push(updates / (clocks.wallSeconds() - wallStarted));
    cpuRates.push(updates / (clocks.cpuSeconds() - cpuStarted));
  }
  return {
    family,
    updatesPerSecond: median(cpuRates),
    wallUpdatesPerSecond: median(wallRates),
    updates,
    runs,
    checksum,
  };
}

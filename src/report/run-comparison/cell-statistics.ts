import type { RecordedColumn } from '../../harness/run-record.js';
import { mcnemarExactTest } from '../../stats/two-sample/mcnemar-exact-test.js';
import { pairedTTest } from '../../stats/two-sample/paired-t-test.js';
import { twoProportionScoreTest } from '../../stats/two-sample/two-proportion-score-test.js';
import type { TwoSampleDifference } from '../../stats/two-sample/two-sample-difference.js';
import { sampleMoments, welchTest } from '../../stats/two-sample/welch-test.js';
import type { CellSample } from './run-samples.js';

/** One summary statistic of one cell, in both runs, with its two-sample test. */
export interface StatisticTest {
  /** "decision = reject" (a frequency) or "mean queries" (a mean). */
  statistic: string;
  kind: 'frequency' | 'mean';
  base: number;
  head: number;
  /** Replicates in each run (matched pairs when paired). */
  baseCount: number;
  headCount: number;
  paired: boolean;
  result: TwoSampleDifference;
}

/**
 * The replicate indices whose seeds are the same in both runs, when every replicate the
 * two share has the same seed (then the runs drew the same randomness and a paired test
 * applies), else null.
 */
function matchedReplicates(base: CellSample, head: CellSample): number[] | null {
  const shared: number[] = [];
  const length = Math.min(base.seeds.length, head.seeds.length);
  for (let replicate = 0; replicate < length; replicate++) {
    if (base.seeds[replicate] === undefined || head.seeds[replicate] === undefined) continue;
    if (base.seeds[replicate] !== head.seeds[replicate]) return null;
    shared.push(replicate);
  }
  return shared.length >= 2 ? shared : null;
}

function present<T>(values: readonly (T | undefined)[]): T[] {
  return values.filter((value): value is T => value !== undefined);
}

/** A frequency test: McNemar on matched pairs, else the score test. */
function frequencyTest(
  statistic: string,
  baseHits: readonly boolean[],
  headHits: readonly boolean[],
  pairs: number[] | null,
): StatisticTest | null {
  const count = (hits: readonly boolean[]) => hits.filter(Boolean).length;
  const baseCount = pairs?.length ?? baseHits.length;
  const headCount = pairs?.length ?? headHits.length;
  let result: TwoSampleDifference;
  let base: number;
  let head: number;
  if (pairs !== null) {
    let baseOnly = 0;
    let headOnly = 0;
    let baseTotal = 0;
    let headTotal = 0;
    for (const replicate of pairs) {
      const b = baseHits[replicate];
      const h = headHits[replicate];
      baseTotal += b ? 1 : 0;
      headTotal += h ? 1 : 0;
      if (b && !h) baseOnly++;
      if (h && !b) headOnly++;
    }
    if ((baseTotal === 0 || baseTotal === pairs.length) && baseTotal === headTotal) return null;
    base = baseTotal / pairs.length;
    head = headTotal / pairs.length;
    result = mcnemarExactTest(baseOnly, headOnly, pairs.length);
  } else {
    const baseHitCount = count(baseHits);
    const headHitCount = count(headHits);
    const constant = (hits: number, trials: number) => hits === 0 || hits === trials;
    if (
      constant(baseHitCount, baseCount) &&
      constant(headHitCount, headCount) &&
      baseHitCount / baseCount === headHitCount / headCount
    )
      return null;
    base = baseHitCount / baseCount;
    head = headHitCount / headCount;
    result = twoProportionScoreTest(baseHitCount, baseCount, headHitCount, headCount);
  }
  return { statistic, kind: 'frequency', base, head, baseCount, headCount, paired: pairs !== null, result };
}

/** A mean test: the paired t-test on matched pairs, else Welch's; null when both runs hold one constant value. */
function meanTest(
  statistic: string,
  baseValues: readonly number[],
  headValues: readonly number[],
  pairs: number[] | null,
): StatisticTest | null {
  const baseMoments = sampleMoments(present(baseValues));
  const headMoments = sampleMoments(present(headValues));
  if (baseMoments.count < 2 || headMoments.count < 2) return null;
  // A setting-determined quantity (pool size, oracle gap) equal in both runs carries no chance of a false alarm.
  if (baseMoments.variance === 0 && headMoments.variance === 0 && baseMoments.mean === headMoments.mean) return null;
  const common = { statistic, kind: 'mean' as const, base: baseMoments.mean, head: headMoments.mean };
  if (pairs !== null) {
    const differences = pairs
      .map((replicate) => (headValues[replicate] as number) - (baseValues[replicate] as number))
      .filter((difference) => !Number.isNaN(difference));
    if (differences.length >= 2) {
      return {
        ...common,
        baseCount: differences.length,
        headCount: differences.length,
        paired: true,
        result: pairedTTest(differences),
      };
    }
  }
  return {
    ...common,
    baseCount: baseMoments.count,
    headCount: headMoments.count,
    paired: false,
    result: welchTest(baseMoments, headMoments),
  };
}

/**
 * cellStatistics(base, head, outcomes) tests every summary statistic of one cell that
 * the two runs share: for each utf8 outcome with declared values, the frequency of each
 * value (and of true for bool outcomes), by McNemar's exact test when the replicate seeds
 * match and the score test otherwise; for each numeric outcome, the mean, by the paired
 * t-test when seeds match and Welch's otherwise. Statistics constant and equal in both
 * runs (a frequency of 0 or 1, a setting-determined mean) are left out (no variation, no test). O(replicates ×
 * outcomes).
 */
export function cellStatistics(
  base: CellSample,
  head: CellSample,
  outcomes: readonly RecordedColumn[],
): StatisticTest[] {
  const pairs = matchedReplicates(base, head);
  const tests: StatisticTest[] = [];
  for (const column of outcomes) {
    const baseValues = base.values.get(column.name) ?? [];
    const headValues = head.values.get(column.name) ?? [];
    if (column.type === 'utf8' && column.values !== undefined) {
      for (const value of column.values) {
        const hits = (values: Array<number | string>) => Array.from(values, (entry) => entry === value);
        const test = frequencyTest(`${column.name} = ${value}`, hits(baseValues), hits(headValues), pairs);
        if (test !== null) tests.push(test);
      }
    } else if (column.type === 'bool') {
      const hits = (values: Array<number | string>) => Array.from(values, (entry) => entry === 1);
      const test = frequencyTest(`${column.name} = true`, hits(baseValues), hits(headValues), pairs);
      if (test !== null) tests.push(test);
    } else if (column.type === 'int32' || column.type === 'float64') {
      const test = meanTest(`mean ${column.name}`, baseValues as number[], headValues as number[], pairs);
      if (test !== null) tests.push(test);
    }
  }
  return tests;
}

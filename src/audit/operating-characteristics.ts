import type { SequentialTest } from '../stats/sequential-test.js';
import { createRandom, deriveSeed } from '../util/random.js';
import type { PreparedAudit } from './prepare-audit.js';
import type { QueryOrder } from './query-order.js';
import { runTestAudit } from './run-test-audit.js';

/** The decisions and query counts of a batch of audits; concatenates across chunks. */
export interface AuditOutcomes {
  reject: number;
  accept: number;
  inconclusive: number;
  /** Queries of each audit, in replicate order. */
  queries: number[];
}

/** One point of an operating characteristic: the estimated probabilities and query distribution. */
export interface OperatingPoint {
  readonly replicates: number;
  readonly reject: number;
  readonly accept: number;
  readonly inconclusive: number;
  /** Estimated P(reject), P(accept), P(inconclusive), each with its binomial standard error sqrt(p(1-p)/n). */
  readonly rejectRate: number;
  readonly rejectStandardError: number;
  readonly acceptRate: number;
  readonly acceptStandardError: number;
  readonly inconclusiveRate: number;
  readonly inconclusiveStandardError: number;
  /** Mean queries and its standard error (sample sd / sqrt(n)). */
  readonly meanQueries: number;
  readonly meanQueriesStandardError: number;
  /** Query quantiles (type 7, as numpy's default): 10%, 25%, 50%, 75%, 90%. */
  readonly queryQuantiles: {
    readonly p10: number;
    readonly p25: number;
    readonly p50: number;
    readonly p75: number;
    readonly p90: number;
  };
}

/**
 * simulateAudits(prepared, test, budget, order, seed, firstReplicate, count) runs `count`
 * audits of the prepared pool with the test; replicate r draws its order from
 * createRandom(deriveSeed(seed, r)) (as `fairaudit audit --replicates`), so any split of
 * the replicates into chunks, on any threads, concatenates to the same outcomes. Pure in
 * its inputs. O(count x queries).
 */
export function simulateAudits(
  prepared: PreparedAudit,
  test: SequentialTest,
  budget: number,
  order: QueryOrder,
  seed: string,
  firstReplicate: number,
  count: number,
): AuditOutcomes {
  const outcomes: AuditOutcomes = { reject: 0, accept: 0, inconclusive: 0, queries: [] };
  for (let r = firstReplicate; r < firstReplicate + count; r++) {
    const result = runTestAudit(
      prepared,
      test,
      budget,
      order,
      order === 'given' ? null : createRandom(deriveSeed(seed, r)),
    );
    outcomes[result.decision]++;
    outcomes.queries.push(result.queries);
  }
  return outcomes;
}

/** mergeAuditOutcomes(parts) concatenates chunk outcomes given in replicate order. */
export function mergeAuditOutcomes(parts: readonly AuditOutcomes[]): AuditOutcomes {
  const merged: AuditOutcomes = { reject: 0, accept: 0, inconclusive: 0, queries: [] };
  for (const part of parts) {
    merged.reject += part.reject;
    merged.accept += part.accept;
    merged.inconclusive += part.inconclusive;
    for (const q of part.queries) merged.queries.push(q);
  }
  return merged;
}

function quantile(sorted: readonly number[], p: number): number {
  const position = (sorted.length - 1) * p;
  const below = Math.floor(position);
  const above = Math.min(sorted.length - 1, below + 1);
  return sorted[below] + (position - below) * (sorted[above] - sorted[below]);
}

/**
 * operatingPoint(outcomes) summarises a batch: the three decision frequencies with
 * binomial standard errors sqrt(p (1 - p) / n), the mean queries with its standard error
 * (sample standard deviation / sqrt(n)), and query quantiles (linear interpolation, numpy's
 * default). O(n log n). Throws Error on an empty batch (a caller bug).
 */
export function operatingPoint(outcomes: AuditOutcomes): OperatingPoint {
  const n = outcomes.queries.length;
  if (n === 0) throw new Error('operatingPoint requires at least one audit');
  const rate = (count: number) => count / n;
  const error = (count: number) => Math.sqrt((rate(count) * (1 - rate(count))) / n);
  let sum = 0;
  for (const q of outcomes.queries) sum += q;
  const mean = sum / n;
  let squares = 0;
  for (const q of outcomes.queries) squares += (q - mean) ** 2;
  const sd = n > 1 ? Math.sqrt(squares / (n - 1)) : 0;
  const sorted = [...outcomes.queries].sort((a, b) => a - b);
  return {
    replicates: n,
    reject: outcomes.reject,
    accept: outcomes.accept,
    inconclusive: outcomes.inconclusive,
    rejectRate: rate(outcomes.reject),
    rejectStandardError: error(outcomes.reject),
    acceptRate: rate(outcomes.accept),
    acceptStandardError: error(outcomes.accept),
    inconclusiveRate: rate(outcomes.inconclusive),
    inconclusiveStandardError: error(outcomes.inconclusive),
    meanQueries: mean,
    meanQueriesStandardError: sd / Math.sqrt(n),
    queryQuantiles: {
      p10: quantile(sorted, 0.1),
      p25: quantile(sorted, 0.25),
      p50: quantile(sorted, 0.5),
      p75: quantile(sorted, 0.75),
      p90: quantile(sorted, 0.9),
    },
  };
}

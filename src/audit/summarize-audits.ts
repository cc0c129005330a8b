import type { SequentialAuditResult } from './sequential-audit.js';

/** What R replicates of one audit add up to. */
export interface AuditSummary {
  readonly replicates: number;
  readonly decisions: { reject: number; accept: number; inconclusive: number };
  /** Mean queries to termination (paper A Tables 2-3 report mean and std over 20 runs). */
  readonly meanQueries: number;
  /** Sample standard deviation of the queries (n - 1 in the denominator; 0 for one replicate). */
  readonly stdQueries: number;
  readonly fixedDecisions: { reject: number; accept: number; inconclusive: number };
  /** Decisions taken within the first `within` queries (the small-sample regime). */
  readonly earlyDecisions: { within: number; reject: number; accept: number };
}

/**
 * summarizeAudits(results, earlyWithin) counts the sequential and fixed-sample decisions,
 * the decisions taken within the first `earlyWithin` queries (default 10), and gives the
 * mean and sample standard deviation of the queries. O(results).
 * Throws Error on an empty list (a caller bug, not bad input).
 */
export function summarizeAudits(results: readonly SequentialAuditResult[], earlyWithin = 10): AuditSummary {
  if (results.length === 0) throw new Error('summarizeAudits requires at least one result');
  const decisions = { reject: 0, accept: 0, inconclusive: 0 };
  const fixedDecisions = { reject: 0, accept: 0, inconclusive: 0 };
  const earlyDecisions = { within: earlyWithin, reject: 0, accept: 0 };
  let sum = 0;
  for (const result of results) {
    decisions[result.decision]++;
    if (result.decision !== 'inconclusive' && result.queries <= earlyWithin) earlyDecisions[result.decision]++;
    if (result.fixedDecision !== null) fixedDecisions[result.fixedDecision]++;
    sum += result.queries;
  }
  const meanQueries = sum / results.length;
  let squares = 0;
  for (const result of results) squares += (result.queries - meanQueries) ** 2;
  const stdQueries = results.length > 1 ? Math.sqrt(squares / (results.length - 1)) : 0;
  return { replicates: results.length, decisions, meanQueries, stdQueries, fixedDecisions, earlyDecisions };
}

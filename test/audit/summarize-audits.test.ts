import { describe, expect, it } from 'vitest';
import type { SequentialAuditResult } from '../../src/audit/sequential-audit.js';
import { summarizeAudits } from '../../src/audit/summarize-audits.js';

function result(decision: SequentialAuditResult['decision'], queries: number): SequentialAuditResult {
  return { decision, queries, statistic: 0, fixedDecision: 'accept', fixedSamples: 100, fixedGap: 0 };
}

describe('summarizeAudits(results)', () => {
  it('counts decisions and gives the mean and sample standard deviation of queries', () => {
    const summary = summarizeAudits([result('reject', 10), result('reject', 20), result('inconclusive', 60)]);
    expect(summary.decisions).toEqual({ reject: 2, accept: 0, inconclusive: 1 });
    expect(summary.fixedDecisions).toEqual({ reject: 0, accept: 3, inconclusive: 0 });
    expect(summary.meanQueries).toBe(30);
    // numpy.std([10, 20, 60], ddof=1) = 26.457513110645905
    expect(summary.stdQueries).toBeCloseTo(26.457513110645905, 12);
  });

  it('counts the decisions taken within the first earlyWithin queries', () => {
    const results = [result('reject', 3), result('accept', 10), result('reject', 11), result('inconclusive', 5)];
    expect(summarizeAudits(results).earlyDecisions).toEqual({ within: 10, reject: 1, accept: 1 });
    expect(summarizeAudits(results, 20).earlyDecisions).toEqual({ within: 20, reject: 2, accept: 1 });
  });

  it('gives std 0 for one replicate and throws on none', () => {
    expect(summarizeAudits([result('accept', 5)]).stdQueries).toBe(0);
    expect(() => summarizeAudits([])).toThrow(/at least one/);
  });
});

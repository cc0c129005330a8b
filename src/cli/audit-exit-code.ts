import type { MultiGroupAuditSummary } from '../audit/audit-multi-group-pool.js';
import type { AuditPoolSummary } from '../audit/audit-pool.js';

/** The verdicts `fairaudit audit --fail-on` can gate on. */
export const FAIL_ON = ['violation', 'inconclusive'] as const;
export type FailOn = (typeof FAIL_ON)[number];

/** The exit codes of `fairaudit audit`, each with its meaning (the documented table). */
export const AUDIT_EXIT_CODES = [
  { code: 0, meaning: 'the audit ran, and no verdict named by --fail-on was reached (always 0 without --fail-on)' },
  { code: 1, meaning: 'an internal error (the message and stack on stderr)' },
  { code: 2, meaning: 'bad input: a flag, pool file or recipe (the message names it); nothing ran' },
  { code: 3, meaning: 'with --fail-on violation or inconclusive: an audit (any replicate) found a VIOLATION' },
  { code: 4, meaning: 'with --fail-on inconclusive: no violation, but an audit (any replicate) was INCONCLUSIVE' },
] as const;

/**
 * auditExitCode(summary, failOn) is the exit code a script gates on: 3 when an audit
 * rejected H0 (a violation) and failOn is given, 4 when failOn is inconclusive and an
 * audit ended without a decision, else 0 (AUDIT_EXIT_CODES). O(1).
 * @param summary what auditPool returned
 * @param failOn the --fail-on verdict, if given
 * @returns 0, 3 or 4
 * @example auditExitCode(summary, 'violation') // 3 when the audit found a violation
 */
export function auditExitCode(summary: AuditPoolSummary | MultiGroupAuditSummary, failOn: FailOn | undefined): number {
  if (failOn === undefined) return 0;
  const { verdict, decisions } = summary as { verdict?: string; decisions?: { reject: number; inconclusive: number } };
  const violations = verdict !== undefined ? Number(verdict === 'violation') : (decisions?.reject ?? 0);
  const inconclusive = verdict !== undefined ? Number(verdict === 'inconclusive') : (decisions?.inconclusive ?? 0);
  if (violations > 0) return 3;
  if (failOn === 'inconclusive' && inconclusive > 0) return 4;
  return 0;
}

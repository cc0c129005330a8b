import { GlrThresholdTest } from '../stats/glr-threshold-test.js';
import { TwoSampleBettingTest } from '../stats/two-sample-betting-test.js';
import type { Random } from '../util/random.js';
import { type AuditSettings, toleranceOfAccess } from './audit-settings.js';
import type { TestName } from './audit-test.js';
import type { AuditTest } from './build-audit-test.js';
import type { PreparedAudit } from './prepare-audit.js';
import type { QueryOrder } from './query-order.js';
import { runTestAuditWithFixedSample } from './run-test-audit.js';
import { runSequentialAudit, type SequentialAuditResult } from './sequential-audit.js';

/** The settings runAudit reads beyond the built test. */
export type RunAuditSettings = Pick<
  AuditSettings,
  'tolerance' | 'scoreTolerance' | 'logitTolerance' | 'budget' | 'alpha' | 'beta' | 'minimumPerGroup'
>;

/** One audit's result, with the betting test's evidence. */
export interface AuditRunResult extends SequentialAuditResult {
  /** test betting: log of its e-value against H0 when it stopped (the mean of the two one-sided e-values). */
  readonly logEValue?: number;
}

/**
 * The betting test's evidence against H0 (log of the mean of its H0+ and H0- e-values,
 * what it compares with log(1/alpha)); +Infinity once the draws rule H0 out. O(1).
 */
function bettingLogEValue(test: TwoSampleBettingTest): number {
  const plus = test.logEvidence[0];
  const minus = test.logEvidence[1];
  const most = Math.max(plus, minus);
  if (!Number.isFinite(most)) return most;
  return most + Math.log(0.5 * (Math.exp(plus - most) + Math.exp(minus - most)));
}

/**
 * runsPaperALoop(test, order) says whether an audit runs paper A's own loop
 * (runSequentialAudit, so its rows are exactly paper A's): paper A's test, wald-glr, in
 * random or the pool's order; every other test, and the balanced order, runs a built test.
 * O(1).
 */
export function runsPaperALoop(test: TestName, order: QueryOrder | undefined): boolean {
  return test === 'wald-glr' && order !== 'balanced';
}

/**
 * runAudit(prepared, settings, auditTest, order, random) runs one audit of the prepared
 * pool with the built test (buildAuditTest) and the fixed-sample decision on the first
 * min(B, pool size) rows of the same order. Paper A's test in random or the pool's order
 * runs through runSequentialAudit itself, so its results are exactly paper A's; every
 * other test, and the balanced order, through runTestAuditWithFixedSample. `statistic` is
 * the final signed GLR for the GLR tests and NaN for the betting and confidence-sequence
 * tests (they have no GLR); the betting test returns its evidence instead (logEValue),
 * the confidence-sequence test its interval for the gap (gapInterval). Kernel: settings validated
 * (auditSettingsSchema), `random`
 * non-null unless order is 'given'. O(min(B, pool size)) plus the test's own cost.
 */
export function runAudit(
  prepared: PreparedAudit,
  settings: RunAuditSettings,
  auditTest: AuditTest,
  order: QueryOrder,
  random: Random | null,
): AuditRunResult {
  if (runsPaperALoop(auditTest.name, order))
    return runSequentialAudit(prepared, settings, order === 'given' ? null : random);
  const test = auditTest.test;
  const result = runTestAuditWithFixedSample(
    prepared,
    test,
    settings.budget,
    order,
    random,
    toleranceOfAccess(settings, prepared.access),
  );
  // Only the confidence-sequence test keeps an interval (a wrapper of another test answers NaN).
  const interval = auditTest.name === 'confidence-sequence' ? test.gapInterval?.() : undefined;
  return {
    ...result,
    statistic: test instanceof GlrThresholdTest ? test.statistic : Number.NaN,
    ...(interval === undefined ? {} : { gapInterval: interval }),
    ...(test instanceof TwoSampleBettingTest ? { logEValue: bettingLogEValue(test) } : {}),
  };
}

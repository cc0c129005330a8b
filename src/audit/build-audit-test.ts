import type { SequentialTest } from '../stats/sequential-test.js';
import { type SequentialThresholds, waldThresholds } from '../stats/thresholds.js';
import type { AuditSettings } from './audit-settings.js';
import { toleranceOfAccess } from './audit-settings.js';
import { isGlrTest, startRuleOf, type TestName, testOf } from './audit-test.js';
import {
  type CalibratedAuditSettings,
  type CalibrationLookup,
  calibrationFor,
  calibrationOptionsOf,
  calibrationSettingOf,
  type FoundCalibration,
  needsCalibration,
} from './calibration/audit-calibration.js';
import { makeSequentialTest } from './create-sequential-test.js';
import { logitBoundsProblem } from './logit-bounds-check.js';
import type { PreparedAudit } from './prepare-audit.js';
import { varianceRefusal } from './variance-refusal.js';

/** The settings buildAuditTest reads: an audit's (auditSettingsSchema's keys). */
export type AuditTestSettings = CalibratedAuditSettings & Pick<AuditSettings, 'logitBounds'>;

/** An audit's test, built: the test object and what it is. */
export interface AuditTest {
  readonly name: TestName;
  readonly test: SequentialTest;
  /** The GLR tests' thresholds (Wald's, calibrated or given); null for betting and confidence-sequence. */
  readonly thresholds: SequentialThresholds | null;
  /** The start rule in force (startRuleOf). */
  readonly minimumPerGroup: number;
  /** The calibration used by thresholds: calibrated, with whether it came from the cache. */
  readonly calibration: FoundCalibration | null;
}

/**
 * buildAuditTest(prepared, settings, lookup, calibration) builds the sequential test an audit's settings select
 * (testOf): Wald's thresholds for wald-glr; the given {upper, lower} for given-thresholds; for calibrated-glr
 * the calibration of this setting from the cache (its fingerprint is the setting's), or `calibration` when the
 * caller found it ahead (auditPool and a run compute it on worker threads), computed in this thread when neither
 * has it (calibrationFor); the betting and confidence-sequence tests sized for the pool, with the order and
 * declared logit bounds (makeSequentialTest: the settings were validated once, by the audit settings' schema and
 * its cross-key rule). Kernel: no validation of the settings; throws InputError for a calibration that cannot
 * meet alpha and beta, and, for the GLR tests on scores or logits, for a pool whose within-group variance is
 * zero or negligible (varianceRefusal: refused before the audit, so paper A's statistic is unchanged wherever it
 * runs), and for the betting and confidence-sequence tests on logits, for a pool with a logit outside the
 * declared bounds (logitBoundsProblem, on the whole pool before the audit). O(pool size) plus the calibration
 * when it is not cached.
 */
export function buildAuditTest(
  prepared: PreparedAudit,
  settings: AuditTestSettings,
  lookup: CalibrationLookup = {},
  calibration: FoundCalibration | null = null,
): AuditTest {
  const name = testOf(settings);
  if (isGlrTest(name)) {
    const refusal = varianceRefusal(prepared, toleranceOfAccess(settings, prepared.access));
    if (refusal !== null) throw refusal;
  }
  if (prepared.access === 'logit' && settings.logitBounds !== undefined && !isGlrTest(name)) {
    const outside = logitBoundsProblem(prepared, settings.logitBounds);
    if (outside !== null) throw outside;
  }
  const found = !needsCalibration(settings)
    ? null
    : (calibration ?? calibrationFor(calibrationSettingOf(prepared, settings), calibrationOptionsOf(settings), lookup));
  let thresholds: SequentialThresholds | null = null;
  if (name === 'wald-glr') thresholds = waldThresholds(settings.alpha, settings.beta);
  else if (found !== null) thresholds = { upper: found.record.upper, lower: found.record.lower };
  else if (typeof settings.thresholds === 'object') thresholds = settings.thresholds;
  const minimumPerGroup = startRuleOf(name, prepared.access, settings.minimumPerGroup);
  const test = makeSequentialTest(prepared, {
    test: name,
    tolerance: toleranceOfAccess(settings, prepared.access),
    alpha: settings.alpha,
    beta: settings.beta,
    minimumPerGroup,
    order: settings.order ?? 'random',
    ...(thresholds !== null && name !== 'wald-glr' ? { thresholds } : {}),
    ...(settings.logitBounds === undefined ? {} : { logitBounds: settings.logitBounds }),
  });
  return { name, test, thresholds, minimumPerGroup, calibration: found };
}

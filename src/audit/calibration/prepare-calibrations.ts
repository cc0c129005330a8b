import type { AccessRegime } from '../access-regime.js';
import type { FairnessMetric } from '../metric.js';
import type { AuditPool } from '../pool.js';
import { prepareAudit } from '../prepare-audit.js';
import {
  type CalibratedAuditSettings,
  calibrationOnThreads,
  calibrationOptionsOf,
  calibrationSettingOf,
  needsCalibration,
} from './audit-calibration.js';
import { CalibrationWorkers, threadsFor } from './calibrate-on-threads.js';
import type { CalibrationOptions, CalibrationSetting } from './calibration-plan.js';
import { planCalibration } from './calibration-plan.js';
import { calibrationFingerprint } from './calibration-record.js';

/** One audit whose calibration may be needed: its settings and how to get its pool (only loaded when needed). */
export interface CalibrationCandidate {
  readonly settings: CalibratedAuditSettings & { readonly metric: FairnessMetric; readonly access: AccessRegime };
  readonly pool: () => Promise<AuditPool>;
  /** The setting's name in messages (default "thresholds"). */
  readonly where?: string;
}

/**
 * prepareAuditCalibrations(candidates, options) makes sure the calibration cache holds
 * the calibration of every candidate whose settings call for one (needsCalibration):
 * their pools are loaded and prepared, equal calibrations (equal fingerprints: decision
 * access depends on a pool only through its group sizes) are computed once, all at once
 * on one pool of `threads` worker threads (CalibrationWorkers), so small calibrations
 * share the threads instead of each starting its own. A run of the
 * sequential-audit or operating-characteristic kind calls it before its workers start, so
 * their contexts find the thresholds in the cache. Throws InputError for a bad setting or
 * an alpha and beta a setting cannot meet. Running time: the calibrations not yet cached.
 */
export async function prepareAuditCalibrations(
  candidates: readonly CalibrationCandidate[],
  options: {
    readonly threads?: number;
    readonly cacheDirectory?: string;
    readonly onNotice?: (notice: string) => void;
  } = {},
): Promise<void> {
  const pending = new Map<string, { setting: CalibrationSetting; options: CalibrationOptions; where: string }>();
  for (const candidate of candidates) {
    if (!needsCalibration(candidate.settings)) continue;
    const prepared = prepareAudit(await candidate.pool(), candidate.settings.metric, candidate.settings.access);
    const setting = calibrationSettingOf(prepared, candidate.settings);
    const calibrationOptions = calibrationOptionsOf(candidate.settings);
    const fingerprint = calibrationFingerprint(planCalibration(setting, calibrationOptions));
    if (!pending.has(fingerprint))
      pending.set(fingerprint, { setting, options: calibrationOptions, where: candidate.where ?? 'thresholds' });
  }
  if (pending.size === 0) return;
  const workers = new CalibrationWorkers(threadsFor(options.threads, Number.POSITIVE_INFINITY));
  try {
    await Promise.all(
      [...pending.values()].map(({ setting, options: calibrationOptions, where }) =>
        calibrationOnThreads(
          setting,
          calibrationOptions,
          {
            where,
            ...(options.cacheDirectory === undefined ? {} : { cacheDirectory: options.cacheDirectory }),
            ...(options.onNotice === undefined ? {} : { onNotice: options.onNotice }),
          },
          { workers },
        ),
      ),
    );
  } finally {
    await workers.close();
  }
}

import { isInputError } from '../../util/errors.js';
import type { AuditSettings } from '../audit-settings.js';
import { toleranceOfAccess } from '../audit-settings.js';
import { startRuleOf, testOf } from '../audit-test.js';
import type { PreparedAudit } from '../prepare-audit.js';
import type { QueryOrder } from '../query-order.js';
import { type CalibrationResult, calibrateGlrThresholds } from './calibrate-glr-thresholds.js';
import {
  type CalibrationThreadOptions,
  type CalibrationWorkers,
  calibrateGlrThresholdsOnThreads,
  threadsFor,
} from './calibrate-on-threads.js';
import {
  calibrationCacheDirectory,
  calibrationCacheFile,
  readCheckedCalibration,
  writeCachedCalibration,
} from './calibration-cache.js';
import { type CalibrationOptions, type CalibrationSetting, planCalibration } from './calibration-plan.js';
import {
  type CalibrationRecord,
  calibrationFingerprint,
  calibrationRecord,
  checkCertified,
} from './calibration-record.js';
import { calibrationTimeBound } from './calibration-time-bound.js';

/** The audit settings a calibration depends on (auditSettingsSchema's keys). */
export type CalibratedAuditSettings = Pick<
  AuditSettings,
  | 'tolerance'
  | 'scoreTolerance'
  | 'logitTolerance'
  | 'budget'
  | 'alpha'
  | 'beta'
  | 'minimumPerGroup'
  | 'test'
  | 'thresholds'
  | 'calibration'
> & { readonly order?: QueryOrder };

/** The defaults of the `calibration` settings, as `fairaudit calibrate` uses them. */
export const DEFAULT_CALIBRATION = { paths: 4000, seed: 'calibrate', confidence: 0.95 } as const;

/**
 * needsCalibration(settings) says whether an audit's settings call for calibrated
 * thresholds from the cache: test calibrated-glr with thresholds absent or 'calibrated'
 * (given {upper, lower} need none). O(1).
 */
export function needsCalibration(settings: Pick<CalibratedAuditSettings, 'test' | 'thresholds'>): boolean {
  return (
    testOf(settings) === 'calibrated-glr' && (settings.thresholds === undefined || settings.thresholds === 'calibrated')
  );
}

/**
 * calibrationSettingOf(prepared, settings) is what the calibration of an audit covers:
 * the prepared pool's access regime and group sizes (and, for score and logit access,
 * its groups and values, which the null projection moves), the access regime's tolerance
 * (toleranceOfAccess), the budget, calibrated-glr's start rule (startRuleOf: 5 per group
 * for scores and logits unless minimumPerGroup is set), the order (random unless
 * balanced) and alpha, beta. O(1) (the values are shared, not copied).
 */
export function calibrationSettingOf(prepared: PreparedAudit, settings: CalibratedAuditSettings): CalibrationSetting {
  const access = prepared.access;
  return {
    access,
    countA: prepared.countA,
    countB: prepared.countB,
    ...(access === 'decision' ? {} : { group: prepared.group, value: prepared.value }),
    tolerance: toleranceOfAccess(settings, access),
    budget: settings.budget,
    minimumPerGroup: startRuleOf('calibrated-glr', access, settings.minimumPerGroup),
    // 'given' is refused by testSettingsProblem before a calibration is asked for.
    order: settings.order === 'balanced' ? 'balanced' : 'random',
    alpha: settings.alpha,
    beta: settings.beta,
  };
}

/** calibrationOptionsOf(settings) is the Monte Carlo of the `calibration` settings (defaults: DEFAULT_CALIBRATION). */
export function calibrationOptionsOf(settings: Pick<CalibratedAuditSettings, 'calibration'>): CalibrationOptions {
  const given = settings.calibration;
  return {
    seed: given?.seed ?? DEFAULT_CALIBRATION.seed,
    paths: given?.paths ?? DEFAULT_CALIBRATION.paths,
    confidence: given?.confidence ?? DEFAULT_CALIBRATION.confidence,
    ...(given?.baseRates === undefined ? {} : { baseRates: given.baseRates }),
  };
}

/** Where a calibration comes from, and how it is found. */
export interface CalibrationLookup {
  /** The cache folder (default calibrationCacheDirectory()). */
  readonly cacheDirectory?: string;
  /** The name of the setting in messages (default "thresholds"). */
  readonly where?: string;
  /**
   * Called with a one-line notice: before a calibration is computed, its expected duration
   * (calibrationTimeBound, which times a short probe first); a cache entry found damaged or
   * inconsistent (then recomputed, never used), a calibration that could not be saved (then used unsaved).
   */
  readonly onNotice?: (notice: string) => void;
}

/** A calibration as found: the record, and whether it came from the cache. */
export interface FoundCalibration {
  readonly record: CalibrationRecord;
  readonly cached: boolean;
  readonly file: string | null;
}

/** The cache folder, and the cached calibration of the setting when there is one (checked: certified). */
function fromCache(
  setting: CalibrationSetting,
  options: CalibrationOptions,
  lookup: CalibrationLookup,
): { directory: string; found: FoundCalibration | null } {
  const directory = lookup.cacheDirectory ?? calibrationCacheDirectory();
  const fingerprint = calibrationFingerprint(planCalibration(setting, options));
  const cached = readCheckedCalibration(directory, fingerprint);
  if (cached === null) return { directory, found: null };
  if ('problem' in cached) {
    lookup.onNotice?.(`${calibrationCacheFile(directory, fingerprint)}: ${cached.problem}; recomputing it`);
    return { directory, found: null };
  }
  checkCertified(cached.record, lookup.where ?? 'thresholds');
  return { directory, found: { record: cached.record, cached: true, file: null } };
}

/** The notice before a calibration is computed: its expected duration (calibrationTimeBound) and where it is saved. */
function announce(
  setting: CalibrationSetting,
  options: CalibrationOptions,
  directory: string,
  threads: number,
  lookup: CalibrationLookup,
): void {
  if (lookup.onNotice === undefined) return;
  const seconds = calibrationTimeBound(planCalibration(setting, options), threads);
  lookup.onNotice(
    `calibrating the GLR thresholds of this setting (not in the cache): expected to take up to about ` +
      `${Math.max(1, Math.ceil(seconds))} s on ${threads} thread${threads === 1 ? '' : 's'}; saved ` +
      `in ${directory} for next time`,
  );
}

/**
 * Saves a fresh calibration in the cache (also an uncertified one, so the next call fails
 * as fast), then checks it. A cache that cannot be written (full, read-only) loses nothing:
 * the calibration is used unsaved, with a notice.
 */
function saved(directory: string, result: CalibrationResult, lookup: CalibrationLookup): FoundCalibration {
  const record = calibrationRecord(result);
  let file: string | null = null;
  try {
    file = writeCachedCalibration(directory, record);
  } catch (error) {
    const why = isInputError(error)
      ? error.message
      : `${directory}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`;
    lookup.onNotice?.(`could not save the calibration (${why}); it is used now and will be computed again next time`);
  }
  checkCertified(record, lookup.where ?? 'thresholds');
  return { record, cached: false, file };
}

/**
 * calibrationFor(setting, options, lookup) returns the calibration of a setting: the
 * cached record of its fingerprint (calibrationFingerprint), or one computed in this
 * thread (calibrateGlrThresholds) and saved to the cache. Throws InputError for a bad
 * setting, an alpha or beta the setting cannot meet (naming the smallest it can), or
 * thresholds fresh simulations did not certify (checkCertified; the record is cached, so
 * the next call fails as fast). Running time: a cache read, or a calibration.
 */
export function calibrationFor(
  setting: CalibrationSetting,
  options: CalibrationOptions,
  lookup: CalibrationLookup = {},
): FoundCalibration {
  const { directory, found } = fromCache(setting, options, lookup);
  if (found !== null) return found;
  announce(setting, options, directory, 1, lookup);
  return saved(directory, calibrateGlrThresholds(setting, options), lookup);
}

/**
 * calibrationOnThreads(setting, options, lookup, threadOptions) is calibrationFor with the
 * calibration spread over worker threads (threadOptions.workers, a pool shared with other
 * calibrations, or calibrateGlrThresholdsOnThreads' own: the same record for any thread
 * count). Throws what calibrationFor throws.
 */
export async function calibrationOnThreads(
  setting: CalibrationSetting,
  options: CalibrationOptions,
  lookup: CalibrationLookup = {},
  threadOptions: CalibrationThreadOptions & { readonly workers?: CalibrationWorkers } = {},
): Promise<FoundCalibration> {
  const { directory, found } = fromCache(setting, options, lookup);
  if (found !== null) return found;
  const threads = threadOptions.workers?.threads ?? threadsFor(threadOptions.threads, Number.POSITIVE_INFINITY);
  announce(setting, options, directory, threads, lookup);
  const result =
    threadOptions.workers === undefined
      ? await calibrateGlrThresholdsOnThreads(setting, options, threadOptions)
      : await threadOptions.workers.calibrate(setting, options, threadOptions.onProgress);
  return saved(directory, result, lookup);
}

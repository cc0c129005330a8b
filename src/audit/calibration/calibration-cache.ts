import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../util/atomic-write.js';
import { canonicalJson } from '../../util/canonical-json.js';
import { userCacheDirectory } from '../../util/user-cache-directory.js';
import { CALIBRATION_FORMAT, type CalibrationRecord } from './calibration-record.js';

/**
 * calibrationCacheDirectory() is where calibrations are cached, by the CLI and the library
 * alike: FAIRAUDIT_CALIBRATION_CACHE when set, else calibrations/ in the user's cache
 * folder (userCacheDirectory: FAIRAUDIT_CACHE_DIR, else $XDG_CACHE_HOME/fairaudit, else
 * ~/.cache/fairaudit), never inside the installed package. O(1).
 */
export function calibrationCacheDirectory(): string {
  const own = process.env.FAIRAUDIT_CALIBRATION_CACHE;
  return own !== undefined && own !== '' ? own : join(userCacheDirectory(), 'calibrations');
}

/** The cache file of a fingerprint. */
export function calibrationCacheFile(directory: string, fingerprint: string): string {
  return join(directory, `${fingerprint}.json`);
}

/** The checksum a cache file carries: sha256 of the record's canonical JSON (without the checksum). */
function recordChecksum(record: CalibrationRecord): string {
  return createHash('sha256').update(canonicalJson(record)).digest('hex');
}

/**
 * Why a calibration record contradicts itself, or null: thresholds that are not finite
 * numbers or not upper > lower, an upper threshold below its own interval's start
 * (thresholds there reject significantly more often than alpha) or a lower threshold
 * above its interval's start (they accept significantly more often than beta). O(1).
 */
function inconsistency(record: CalibrationRecord): string | null {
  const { upper, lower, upperInterval, lowerInterval } = record;
  if (typeof upper !== 'number' || typeof lower !== 'number' || !Number.isFinite(upper) || !Number.isFinite(lower))
    return `thresholds that are not numbers (upper ${upper}, lower ${lower})`;
  if (!(upper > lower)) return `an upper threshold ${upper} not above the lower ${lower}`;
  const margin = 1e-9;
  const upperStart = Array.isArray(upperInterval) ? upperInterval[0] : null;
  const lowerStart = Array.isArray(lowerInterval) ? lowerInterval[0] : null;
  if (typeof upperStart === 'number' && upper < upperStart - margin)
    return `an upper threshold ${upper} below its own interval [${upperInterval[0]}, ${upperInterval[1]}]`;
  if (typeof lowerStart === 'number' && lower > lowerStart + margin)
    return `a lower threshold ${lower} above its own interval [${lowerInterval[0]}, ${lowerInterval[1]}]`;
  if (typeof record.certified !== 'boolean') return 'no certificate';
  return null;
}

/** A cache file as read: its record, a problem that makes it unusable (in words), or nothing there. */
export type CachedCalibration = { record: CalibrationRecord } | { problem: string } | null;

/**
 * readCheckedCalibration(directory, fingerprint) reads the cache file of that fingerprint
 * and checks it: JSON of this format and fingerprint, its checksum (sha256 of the record's
 * canonical JSON, which catches damage, not a determined editor), and the record's own
 * consistency (inconsistency: thresholds inside what their intervals allow). Returns null
 * when there is no file, else the record or why it is not used (the caller recomputes it
 * and says so). O(file size).
 */
export function readCheckedCalibration(directory: string, fingerprint: string): CachedCalibration {
  const file = calibrationCacheFile(directory, fingerprint);
  if (!existsSync(file)) return null;
  let stored: CalibrationRecord & { sha256?: unknown };
  try {
    stored = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return { problem: 'unreadable JSON (a damaged or truncated file)' };
  }
  if (typeof stored !== 'object' || stored === null || stored.format !== CALIBRATION_FORMAT)
    return { problem: `no calibration of format ${CALIBRATION_FORMAT} (written by another fairaudit version)` };
  if (stored.fingerprint !== fingerprint)
    return { problem: `the calibration of another setting (${String(stored.fingerprint).slice(0, 16)}…)` };
  const { sha256, ...record } = stored;
  if (typeof sha256 !== 'string') return { problem: 'no checksum (written by an older fairaudit)' };
  if (sha256 !== recordChecksum(record))
    return { problem: 'a checksum that does not match its content (changed or damaged)' };
  const problem = inconsistency(record);
  return problem === null ? { record } : { problem: `a record that contradicts itself: ${problem}` };
}

/**
 * readCachedCalibration(directory, fingerprint) returns the cached record of that
 * fingerprint when readCheckedCalibration finds it whole and consistent, else null (a
 * stale, foreign, damaged or edited file is recomputed, not trusted). O(file size).
 */
export function readCachedCalibration(directory: string, fingerprint: string): CalibrationRecord | null {
  const found = readCheckedCalibration(directory, fingerprint);
  return found !== null && 'record' in found ? found.record : null;
}

/**
 * writeCachedCalibration(directory, record) saves the record with its checksum as <fingerprint>.json,
 * atomically (temporary name, then rename), and returns the path. O(record).
 */
export function writeCachedCalibration(directory: string, record: CalibrationRecord): string {
  const file = calibrationCacheFile(directory, record.fingerprint);
  writeFileAtomic(file, `${JSON.stringify({ ...record, sha256: recordChecksum(record) }, null, 2)}\n`);
  return file;
}

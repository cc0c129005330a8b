import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../util/atomic-write.js';
import { packageRoot } from '../../util/paths.js';
import { CALIBRATION_FORMAT, type CalibrationRecord } from './calibration-record.js';

/**
 * calibrationCacheDirectory() is where calibrations are cached: FAIRAUDIT_CALIBRATION_CACHE
 * when set, else data/cache/calibrations/ in the package (next to the model cache,
 * data/cache/models/; git-ignored). O(1).
 */
export function calibrationCacheDirectory(): string {
  return process.env.FAIRAUDIT_CALIBRATION_CACHE ?? join(packageRoot(), 'data', 'cache', 'calibrations');
}

/** The cache file of a fingerprint. */
export function calibrationCacheFile(directory: string, fingerprint: string): string {
  return join(directory, `${fingerprint}.json`);
}

/**
 * readCachedCalibration(directory, fingerprint) returns the cached record of that
 * fingerprint, or null when there is none or the file is not a calibration of this format
 * with this fingerprint (a stale or foreign file is recomputed, not trusted). O(file size).
 */
export function readCachedCalibration(directory: string, fingerprint: string): CalibrationRecord | null {
  const file = calibrationCacheFile(directory, fingerprint);
  if (!existsSync(file)) return null;
  try {
    const record = JSON.parse(readFileSync(file, 'utf8')) as CalibrationRecord;
    return record.format === CALIBRATION_FORMAT && record.fingerprint === fingerprint ? record : null;
  } catch {
    return null;
  }
}

/**
 * writeCachedCalibration(directory, record) saves the record as <fingerprint>.json,
 * atomically (temporary name, then rename), and returns the path. O(record).
 */
export function writeCachedCalibration(directory: string, record: CalibrationRecord): string {
  const file = calibrationCacheFile(directory, record.fingerprint);
  writeFileAtomic(file, `${JSON.stringify(record, null, 2)}\n`);
  return file;
}

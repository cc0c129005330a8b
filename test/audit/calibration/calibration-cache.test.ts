import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { auditSettingsSchema } from '../../../src/audit/audit-settings.js';
import {
  calibrationFor,
  calibrationOptionsOf,
  calibrationSettingOf,
} from '../../../src/audit/calibration/audit-calibration.js';
import { calibrationCacheFile, readCheckedCalibration } from '../../../src/audit/calibration/calibration-cache.js';
import { countPool } from '../../../src/audit/calibration/count-pool.js';
import { prepareAudit } from '../../../src/audit/prepare-audit.js';
import { canonicalJson } from '../../../src/util/canonical-json.js';
import { validate } from '../../../src/util/schema.js';
import { spawnCliSync } from '../../helpers/cli.js';
import { temporaryFolder } from '../../helpers/temporary-folder.js';

// A small decision setting (300 and 200 rows, B = 300, δ = 0.1, 600 paths, three base rates): a second or two.
const settings = validate(
  {
    tolerance: 0.1,
    budget: 300,
    alpha: 0.1,
    thresholds: 'calibrated',
    calibration: { paths: 600, baseRates: [0, 0.5, 1] },
  },
  auditSettingsSchema,
);
const setting = () =>
  calibrationSettingOf(
    prepareAudit(countPool({ countA: 300, positivesA: 90, countB: 200, positivesB: 70 }), 'sp', 'decision'),
    settings,
  );

describe('the calibration cache is checked as results are', () => {
  it('an upper threshold edited below its own interval: recomputed with a one-line notice, never used', () => {
    const cacheDirectory = temporaryFolder('fairaudit-calibration-cache-');
    const notices: string[] = [];
    const first = calibrationFor(setting(), calibrationOptionsOf(settings), { cacheDirectory });
    const file = calibrationCacheFile(cacheDirectory, first.record.fingerprint);
    const stored = JSON.parse(readFileSync(file, 'utf8'));
    expect(stored.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(first.record.upper).toBeGreaterThanOrEqual(first.record.upperInterval[0] as number);

    // The edit of a hand who also recomputes the checksum would still contradict the interval; this one does not.
    writeFileSync(file, JSON.stringify({ ...stored, upper: 0.3 }));
    expect(readCheckedCalibration(cacheDirectory, first.record.fingerprint)).toEqual({
      problem: 'a checksum that does not match its content (changed or damaged)',
    });
    const again = calibrationFor(setting(), calibrationOptionsOf(settings), {
      cacheDirectory,
      onNotice: (notice) => notices.push(notice),
    });
    expect(again.cached).toBe(false);
    expect(again.record).toEqual(first.record);
    expect(notices).toEqual([
      `${file}: a checksum that does not match its content (changed or damaged); recomputing it`,
      expect.stringMatching(/^calibrating the GLR thresholds of this setting \(not in the cache\): expected to take/),
    ]);
  });

  it(
    'a record that contradicts itself with its checksum recomputed, and a truncated file: each a problem, not a ' +
      'crash',
    () => {
      const cacheDirectory = temporaryFolder('fairaudit-calibration-cache-');
      const first = calibrationFor(setting(), calibrationOptionsOf(settings), { cacheDirectory });
      const file = calibrationCacheFile(cacheDirectory, first.record.fingerprint);
      const { sha256: _sha256, ...record } = JSON.parse(readFileSync(file, 'utf8'));
      const edited = { ...record, upper: record.upperInterval[0] - 2 };
      // The checksum as writeCachedCalibration computes it (sha256 of the canonical JSON).
      writeFileSync(
        file,
        JSON.stringify({ ...edited, sha256: createHash('sha256').update(canonicalJson(edited)).digest('hex') }),
      );
      expect(readCheckedCalibration(cacheDirectory, first.record.fingerprint)).toEqual({
        problem:
          `a record that contradicts itself: an upper threshold ${edited.upper} below its own interval ` +
          `[${record.upperInterval[0]}, ${record.upperInterval[1]}]`,
      });
      writeFileSync(file, readFileSync(file, 'utf8').slice(0, 100));
      expect(readCheckedCalibration(cacheDirectory, first.record.fingerprint)).toEqual({
        problem: 'unreadable JSON (a damaged or truncated file)',
      });
    },
  );

  it('a cache folder that cannot be written: the calibration computed is used, with a notice, not thrown away', () => {
    // A folder under a regular file cannot be made or written, even by root (ENOTDIR).
    const blocker = join(temporaryFolder('fairaudit-calibration-cache-'), 'a-file');
    writeFileSync(blocker, '');
    const cacheDirectory = join(blocker, 'cache');
    const notices: string[] = [];
    const found = calibrationFor(setting(), calibrationOptionsOf(settings), {
      cacheDirectory,
      onNotice: (notice) => notices.push(notice),
    });
    expect(found.file).toBeNull();
    expect(found.cached).toBe(false);
    expect(found.record.certified).toBe(true);
    expect(notices).toEqual([
      expect.stringMatching(/^calibrating the GLR thresholds of this setting \(not in the cache\): expected to take/),
      `could not save the calibration (${cacheDirectory}: expected a place fairaudit can write, found a file ` +
        `where a folder should be (ENOTDIR)); it is used now and will be computed again next time`,
    ]);
  });

  it('fairaudit calibrate on an edited cache entry prints a one-line notice and recomputes it', () => {
    const cache = temporaryFolder('fairaudit-calibration-cache-');
    const args = ['calibrate', '--groups', '300,200', '--budget', '300', '--tolerance', '0.1', '--alpha', '0.1'];
    const flags = [...args, '--calibration-paths', '600', '--calibration-base-rates', '0,0.5,1', '--threads', '1'];
    const first = spawnCliSync([...flags, '--cache-dir', cache, '--quiet']);
    expect(first.code).toBe(0);
    const [name] = readdirSync(cache);
    const file = join(cache, name);
    writeFileSync(file, readFileSync(file, 'utf8').replace(/"upper": [^,]+,/, '"upper": 0.3,'));
    const second = spawnCliSync([...flags, '--cache-dir', cache, '--quiet']);
    expect(second.code).toBe(0);
    expect(second.stderr.split('\n')).toEqual([
      `fairaudit: notice: ${file}: a checksum that does not match its content (changed or damaged); recomputing it`,
      expect.stringMatching(
        /^fairaudit: notice: calibrating the GLR thresholds .* expected to take up to about \d+ s on 1 thread/,
      ),
      '',
    ]);
    expect(second.stdout).not.toContain('from the cache');
    expect(readFileSync(file, 'utf8')).not.toContain('"upper": 0.3,');
  });
});

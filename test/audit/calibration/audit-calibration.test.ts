import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { auditSettingsSchema } from '../../../src/audit/audit-settings.js';
import {
  type CalibratedAuditSettings,
  calibrationFor,
  calibrationOptionsOf,
  calibrationSettingOf,
  needsCalibration,
} from '../../../src/audit/calibration/audit-calibration.js';
import { calibrationCacheFile, readCachedCalibration } from '../../../src/audit/calibration/calibration-cache.js';
import { planCalibration } from '../../../src/audit/calibration/calibration-plan.js';
import {
  type CalibrationRecord,
  calibrationFingerprint,
  checkCertified,
} from '../../../src/audit/calibration/calibration-record.js';
import { countPool } from '../../../src/audit/calibration/count-pool.js';
import { prepareAuditCalibrations } from '../../../src/audit/calibration/prepare-calibrations.js';
import { prepareAudit } from '../../../src/audit/prepare-audit.js';
import { generateSyntheticPool } from '../../../src/data/synthetic-pool.js';
import { validate } from '../../../src/util/schema.js';

const settings = validate(
  {
    thresholds: 'calibrated',
    budget: 300,
    tolerance: 0.1,
    alpha: 0.1,
    calibration: { paths: 800, baseRates: [0, 0.5, 1] },
  },
  auditSettingsSchema,
);

describe('needsCalibration(settings), calibrationSettingOf(prepared, settings), calibrationOptionsOf(settings)', () => {
  it(
    "only calibrated-glr with calibrated (or absent) thresholds needs the cache; the setting is the pool's " +
      "sizes and the audit's settings",
    () => {
      expect(needsCalibration({})).toBe(false);
      expect(needsCalibration({ test: 'calibrated-glr' })).toBe(true);
      expect(needsCalibration({ thresholds: 'calibrated' })).toBe(true);
      expect(needsCalibration({ thresholds: { upper: 5, lower: -2 } })).toBe(false);
      expect(needsCalibration({ test: 'betting' })).toBe(false);
      const prepared = prepareAudit(
        countPool({ countA: 300, positivesA: 90, countB: 200, positivesB: 70 }),
        'sp',
        'decision',
      );
      expect(calibrationSettingOf(prepared, settings)).toEqual({
        access: 'decision',
        countA: 300,
        countB: 200,
        tolerance: 0.1,
        budget: 300,
        minimumPerGroup: 1,
        order: 'random',
        alpha: 0.1,
        beta: 0.2,
      });
      expect(calibrationOptionsOf(settings)).toEqual({
        seed: 'calibrate',
        paths: 800,
        confidence: 0.95,
        baseRates: [0, 0.5, 1],
      });
      expect(calibrationOptionsOf({})).toEqual({ seed: 'calibrate', paths: 4000, confidence: 0.95 });
      const scores = prepareAudit(
        generateSyntheticPool({
          size: 500,
          groupShare: 0.4,
          labelRate: [0.5, 0.5],
          decisionRate: [0.4, 0.4],
          logitScale: 1,
          seed: 's',
        }),
        'sp',
        'score',
      );
      expect(calibrationSettingOf(scores, settings).minimumPerGroup).toBe(5);
    },
  );
});

describe('calibrationFingerprint(plan)', () => {
  it(
    'depends on the group sizes (decisions: not on the rates) and on the values of a score pool, not on how the ' +
      'work is split',
    () => {
      const setting = calibrationSettingOf(
        prepareAudit(countPool({ countA: 300, positivesA: 90, countB: 200, positivesB: 70 }), 'sp', 'decision'),
        settings,
      );
      const options = calibrationOptionsOf(settings);
      const fingerprint = calibrationFingerprint(planCalibration(setting, options));
      const otherRates = calibrationSettingOf(
        prepareAudit(countPool({ countA: 300, positivesA: 10, countB: 200, positivesB: 190 }), 'sp', 'decision'),
        settings,
      );
      expect(calibrationFingerprint(planCalibration(otherRates, options))).toBe(fingerprint);
      expect(calibrationFingerprint(planCalibration({ ...setting, countB: 201 }, options))).not.toBe(fingerprint);
      expect(calibrationFingerprint(planCalibration(setting, { ...options, paths: 801 }))).not.toBe(fingerprint);
      const pool = generateSyntheticPool({
        size: 500,
        groupShare: 0.4,
        labelRate: [0.5, 0.5],
        decisionRate: [0.4, 0.4],
        logitScale: 1,
        seed: 's',
      });
      const score = calibrationSettingOf(prepareAudit(pool, 'sp', 'score'), settings);
      const moved = { ...score, value: score.value!.map((v, i) => (i === 0 ? v + 1e-9 : v)) };
      expect(calibrationFingerprint(planCalibration(moved, options))).not.toBe(
        calibrationFingerprint(planCalibration(score, options)),
      );
    },
  );
});

describe('calibrationFor(setting, options, { cacheDirectory })', () => {
  it(
    'computes and saves a calibration once, then reads it from the cache (the same record); a foreign file is ' +
      'not trusted',
    () => {
      const cacheDirectory = mkdtempSync(join(tmpdir(), 'fairaudit-calibration-cache-'));
      const setting = calibrationSettingOf(
        prepareAudit(countPool({ countA: 300, positivesA: 90, countB: 200, positivesB: 70 }), 'sp', 'decision'),
        settings,
      );
      const options = calibrationOptionsOf(settings);
      const notices: string[] = [];
      const first = calibrationFor(setting, options, { cacheDirectory, onNotice: (notice) => notices.push(notice) });
      expect(first.cached).toBe(false);
      expect(first.file).toBe(calibrationCacheFile(cacheDirectory, first.record.fingerprint));
      // Before computing: one notice of the expected duration and where it is saved.
      expect(notices).toHaveLength(1);
      expect(notices[0]).toMatch(/expected to take up to about \d+ s on 1 thread; saved in /);
      const second = calibrationFor(setting, options, { cacheDirectory, onNotice: (notice) => notices.push(notice) });
      expect(notices).toHaveLength(1);
      expect(second).toEqual({ record: first.record, cached: true, file: null });
      writeFileSync(first.file as string, JSON.stringify({ ...first.record, fingerprint: 'another' }));
      expect(readCachedCalibration(cacheDirectory, first.record.fingerprint)).toBeNull();
      expect(readdirSync(cacheDirectory).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    },
  );
});

describe('checkCertified(record, where)', () => {
  it(
    'passes a certified record and names where, the levels and the smallest certified alpha and beta ' + 'otherwise',
    () => {
      const record = {
        certified: false,
        certificationRounds: 3,
        setting: { alpha: 0.05, beta: 0.2, budget: 300, countA: 30, countB: 20 },
        options: { paths: 500 },
        upper: 9,
        lower: -3,
        worstReject: { upperBound: 0.081 },
        worstAccept: { upperBound: 0.15 },
      } as unknown as CalibrationRecord;
      expect(() => checkCertified({ ...record, certified: true }, 'thresholds')).not.toThrow();
      expect(() => checkCertified(record, 'settings.thresholds')).toThrow(
        new RegExp(
          String.raw`settings\.thresholds: expected alpha 0.05 and beta 0.2 certified .* the smallest alpha ` +
            'and beta certified are 0.0810 and 0.150',
        ),
      );
    },
  );
});

/**
 * prepareCalibrations(cacheDirectory, settings): prepareAuditCalibrations over three
 * candidates: two decision pools of equal group sizes and other rates (one calibration),
 * and one that needs none (wald-glr); returns the calibrations in the cache afterwards.
 */
async function prepareCalibrations(cacheDirectory: string, settings: CalibratedAuditSettings): Promise<number> {
  const candidate = (positivesA: number, extra: Partial<CalibratedAuditSettings> = {}) => ({
    settings: { ...settings, ...extra, metric: 'sp' as const, access: 'decision' as const },
    pool: async () => countPool({ countA: 300, positivesA, countB: 200, positivesB: 70 }),
  });
  await prepareAuditCalibrations(
    [candidate(90), candidate(150), candidate(10, { thresholds: undefined, test: 'wald-glr' })],
    { threads: 2, cacheDirectory },
  );
  return readdirSync(cacheDirectory).filter((name) => name.endsWith('.json')).length;
}

describe('prepareAuditCalibrations(candidates, options)', () => {
  it(
    'calibrates each distinct setting once on one pool of workers (equal group sizes share one), and skips what ' +
      'needs none',
    async () => {
      const cacheDirectory = mkdtempSync(join(tmpdir(), 'fairaudit-prepare-calibrations-'));
      const made = await prepareCalibrations(cacheDirectory, settings);
      expect(made).toBe(1);
      expect(existsSync(cacheDirectory)).toBe(true);
    },
  );
});

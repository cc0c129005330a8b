import { describe, expect, it } from 'vitest';
import { calibrateGlrThresholds } from '../../../src/audit/calibration/calibrate-glr-thresholds.js';
import {
  CalibrationWorkers,
  calibrateGlrThresholdsOnThreads,
} from '../../../src/audit/calibration/calibrate-on-threads.js';
import type { CalibrationSetting } from '../../../src/audit/calibration/calibration-plan.js';
import { calibrationRecord } from '../../../src/audit/calibration/calibration-record.js';
import { createRandom, standardNormal } from '../../../src/util/random.js';

/** A small decision setting: 300 + 200 rows, budget 300, tolerance 0.1. */
const small: CalibrationSetting = {
  access: 'decision',
  countA: 300,
  countB: 200,
  tolerance: 0.1,
  budget: 300,
  minimumPerGroup: 1,
  order: 'random',
  alpha: 0.1,
  beta: 0.2,
};
const options = { seed: 'threads', paths: 1000, chunkPaths: 250, baseRates: [0, 0.5, 1] };

describe('calibrateGlrThresholdsOnThreads(setting, options, { threads })', () => {
  it("gives calibrateGlrThresholds' result, to the last count, with 1, 2 and 3 worker threads", async () => {
    const inThread = calibrationRecord(calibrateGlrThresholds(small, options));
    for (const threads of [1, 2, 3]) {
      expect(calibrationRecord(await calibrateGlrThresholdsOnThreads(small, options, { threads }))).toEqual(inThread);
    }
    expect(inThread.certified).toBe(true);
    // The price: P(inconclusive) at gap 0 and at gap 2 tolerance, with their audits.
    expect(inThread.price.map((point) => [Number(point.gap.toFixed(2)), point.audits])).toEqual([
      [0, 1000],
      [0.2, 1000],
    ]);
  });

  it(
    'CalibrationWorkers runs several calibrations at once on one pool, each as if alone; reports progress per ' +
      'stage',
    async () => {
      const random = createRandom('scores');
      const group = Uint8Array.from({ length: 400 }, (_, i) => (i < 250 ? 0 : 1));
      const value = Float64Array.from(group, (g) =>
        Math.min(1, Math.max(0, 0.4 + 0.05 * g + 0.15 * standardNormal(random))),
      );
      const score: CalibrationSetting = {
        ...small,
        access: 'score',
        countA: 250,
        countB: 150,
        group,
        value,
        minimumPerGroup: 5,
      };
      const workers = new CalibrationWorkers(2);
      const stages = new Set<string>();
      try {
        const [decision, proxy] = await Promise.all([
          workers.calibrate(small, options, (stage) => stages.add(stage)),
          workers.calibrate(score, { seed: 'score', paths: 1000, chunkPaths: 250 }),
        ]);
        expect(calibrationRecord(decision)).toEqual(calibrationRecord(calibrateGlrThresholds(small, options)));
        expect(calibrationRecord(proxy)).toEqual(
          calibrationRecord(calibrateGlrThresholds(score, { seed: 'score', paths: 1000, chunkPaths: 250 })),
        );
      } finally {
        await workers.close();
      }
      expect([...stages]).toEqual(['tune', 'certify', 'price']);
    },
  );

  it(
    'an alpha no threshold pair can meet rejects with InputError naming the smallest alpha and beta the setting ' +
      'can meet',
    async () => {
      await expect(
        calibrateGlrThresholdsOnThreads(
          { ...small, alpha: 0.001 },
          { ...options, paths: 200, chunkPaths: 100 },
          { threads: 2 },
        ),
      ).rejects.toThrow(
        new RegExp(
          'calibrateGlrThresholds: alpha: expected a level this setting can meet .*the smallest ' +
            'alpha it can meet is [0-9.e-]+ and the smallest beta [0-9.e-]+, found 0.001',
        ),
      );
    },
  );
});

import { describe, expect, it } from 'vitest';
import { PILOT_PATHS, planCalibration } from '../../../src/audit/calibration/calibration-plan.js';
import { calibrationTimeBound } from '../../../src/audit/calibration/calibration-time-bound.js';

const setting = {
  access: 'decision' as const,
  countA: 200,
  countB: 150,
  tolerance: 0.1,
  budget: 100,
  minimumPerGroup: 1,
  order: 'random' as const,
  alpha: 0.1,
  beta: 0.2,
};

describe('calibrationTimeBound(plan, threads, clock)', () => {
  it(
    'is the probe time per audit times the audits of pilot, tuning, one certification round and price, over the ' +
      'threads',
    () => {
      const plan = planCalibration(setting, { seed: 'bound', paths: 400 });
      let calls = 0;
      // The probe of 20 audits takes 2 clock seconds: 0.1 s per audit.
      const clock = () => (calls++ % 2 === 0 ? 10 : 12);
      const audits = plan.cells.length * (PILOT_PATHS + 400 + 400) + plan.priceCells.length * 400;
      expect(calibrationTimeBound(plan, 2, clock)).toBeCloseTo((0.1 * audits) / 2, 9);
    },
  );
});

import { describe, expect, it } from 'vitest';
import { calibrateGlrThresholds } from '../../../src/audit/calibration/calibrate-glr-thresholds.js';
import { runTuningChunk } from '../../../src/audit/calibration/calibration-chunks.js';
import { type CalibrationSetting, planCalibration } from '../../../src/audit/calibration/calibration-plan.js';
import { calibrationRecord } from '../../../src/audit/calibration/calibration-record.js';
import { chooseThresholds } from '../../../src/audit/calibration/choose-thresholds.js';
import { countPool } from '../../../src/audit/calibration/count-pool.js';
import { nullProjection } from '../../../src/audit/calibration/null-projection.js';
import { emptyPathCounts, mergePathCounts } from '../../../src/audit/calibration/threshold-paths.js';
import { vacuousCalibration } from '../../../src/audit/calibration/vacuous-calibration.js';
import { prepareAudit } from '../../../src/audit/prepare-audit.js';
import { runTestAudit } from '../../../src/audit/run-test-audit.js';
import { BernoulliGlrStream } from '../../../src/stats/bernoulli-glr-stream.js';
import { clopperPearsonLower } from '../../../src/stats/clopper-pearson.js';
import { GaussianGlrStream } from '../../../src/stats/gaussian-glr-stream.js';
import { GlrThresholdTest } from '../../../src/stats/glr-threshold-test.js';
import { InputError } from '../../../src/util/errors.js';
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

/** Independent audits of one cell at the calibrated thresholds, with their own seeds. */
function independentRates(
  prepared: ReturnType<typeof prepareAudit>,
  upper: number,
  lower: number,
  runs: number,
  seed: string,
) {
  const stream = prepared.family === 'bernoulli' ? new BernoulliGlrStream() : new GaussianGlrStream();
  const test = new GlrThresholdTest(stream, small.tolerance, upper, lower, 1);
  const random = createRandom(seed);
  let rejects = 0;
  let accepts = 0;
  for (let r = 0; r < runs; r++) {
    const { decision } = runTestAudit(prepared, test, small.budget, 'random', random);
    if (decision === 'reject') rejects++;
    if (decision === 'accept') accepts++;
  }
  return { rejects, accepts };
}

describe('calibrateGlrThresholds(setting, options)', () => {
  it(
    'decision access: an independent Monte Carlo at the tightest compliant and violating pools stays within ' +
      'alpha and beta',
    () => {
      // Base rates at both ends and in the middle, where the two suprema sit (the calibration's measurements).
      const result = calibrateGlrThresholds(small, { seed: 'small', paths: 2000, baseRates: [0, 0.1, 0.5, 0.9, 1] });
      expect(result.certified).toBe(true);
      expect(result.upper).toBeGreaterThan(0);
      expect(result.lower).toBeLessThan(0);
      const runs = 6000;
      for (const [worst, error] of [
        [result.worstReject!, 'reject'],
        [result.worstAccept!, 'accept'],
      ] as const) {
        const cell = result.plan.cells.find((c) => c.key === worst.cell)!;
        const prepared = prepareAudit(countPool(cell.counts!), 'sp', 'decision');
        const { rejects, accepts } = independentRates(
          prepared,
          result.upper,
          result.lower,
          runs,
          `independent:${error}`,
        );
        const count = error === 'reject' ? rejects : accepts;
        const level = error === 'reject' ? small.alpha : small.beta;
        // Consistent with the guarantee (99.9% one-sided lower bound <= level) ...
        expect(
          clopperPearsonLower(count, runs, 0.999),
          `${error} at ${worst.cell}: ${count} of ${runs}`,
        ).toBeLessThanOrEqual(level);
        // ... and the tightest pool is really tight, not a vacuous calibration (at least a third of the level).
        expect(count / runs).toBeGreaterThan(level / 3);
      }
    },
  );

  it(
    'score access: calibrated on the pool projected to gaps +-tolerance, the projected pools keep P(reject) <= ' +
      'alpha and P(accept) <= beta',
    () => {
      const random = createRandom('score-pool');
      const size = 500;
      const group = Uint8Array.from({ length: size }, (_, i) => (i < 300 ? 0 : 1));
      const value = Float64Array.from({ length: size }, (_, i) =>
        Math.min(1, Math.max(0, (i < 300 ? 0.35 : 0.42) + 0.15 * standardNormal(random))),
      );
      const setting: CalibrationSetting = { ...small, access: 'score', group, value };
      const result = calibrateGlrThresholds(setting, { seed: 'score', paths: 2000 });
      expect(result.certified).toBe(true);
      for (const gap of [0.1, -0.1]) {
        const projected = nullProjection(group, value, gap);
        const pool = { ...countPool({ countA: 300, positivesA: 0, countB: 200, positivesB: 0 }), score: projected };
        const prepared = prepareAudit(pool, 'sp', 'score');
        const runs = 4000;
        const { rejects, accepts } = independentRates(prepared, result.upper, result.lower, runs, `score:${gap}`);
        expect(clopperPearsonLower(rejects, runs, 0.999)).toBeLessThanOrEqual(small.alpha);
        expect(clopperPearsonLower(accepts, runs, 0.999)).toBeLessThanOrEqual(small.beta);
      }
    },
  );

  it('is deterministic for a seed and does not depend on the order the chunks run in (threads)', () => {
    const plan = planCalibration(small, { seed: 'order', paths: 400, chunkPaths: 100, baseRates: [0.2, 0.7] });
    const merge = (indices: number[]) => {
      const tuning = plan.cells.map((c) => emptyPathCounts(plan.grid, c.role !== 'alternative', c.role !== 'null'));
      for (const i of indices) {
        const chunk = plan.chunks[i];
        for (const [offset, counts] of runTuningChunk(plan, chunk).entries())
          mergePathCounts(tuning[chunk.cell + offset], counts);
      }
      return chooseThresholds(plan, tuning);
    };
    const indices = plan.chunks.map((_, i) => i);
    const forward = merge(indices);
    const backward = merge([...indices].reverse());
    expect(backward).toEqual(forward);
    expect(merge(indices)).toEqual(forward);
  });

  it(
    'the decision cells sit on the boundary: compliant ones at the largest count gap <= tolerance, violating ' +
      'ones at the smallest >= it',
    () => {
      const plan = planCalibration(small, { seed: 'cells' });
      for (const cell of plan.cells) {
        const { countA, positivesA, countB, positivesB } = cell.counts!;
        const gap = positivesB / countB - positivesA / countA;
        if (cell.role === 'null') {
          expect(gap).toBeLessThan(small.tolerance);
          expect((positivesB + 1) / countB - positivesA / countA).toBeGreaterThan(small.tolerance);
        } else if (cell.role === 'alternative') {
          expect(gap).toBeGreaterThan(small.tolerance);
          expect((positivesB - 1) / countB - positivesA / countA).toBeLessThan(small.tolerance);
        } else {
          // e.g. a 60/300, b 60/200: exactly 0.1 on counts
          expect(positivesB * countA - positivesA * countB).toBe(small.tolerance * countA * countB);
        }
      }
      expect(plan.cells.some((c) => c.counts!.positivesA === 0)).toBe(true);
      expect(plan.cells.some((c) => c.counts!.positivesB === c.counts!.countB)).toBe(true);
    },
  );

  it(
    'throws InputError naming the smallest alpha and beta it can meet when the simulations cannot certify the ' +
      'levels asked for',
    () => {
      expect(() =>
        calibrateGlrThresholds({ ...small, alpha: 1e-4 }, { seed: 'impossible', paths: 200, baseRates: [0.5] }),
      ).toThrow(
        new RegExp(
          'calibrateGlrThresholds: alpha: expected a level this setting can meet .*the smallest ' +
            'alpha it can meet is [0-9.e-]+ and the smallest beta [0-9.e-]+, found 0.0001',
        ),
      );
    },
  );

  it(
    'throws InputError naming the setting for a pool with one group, a tolerance >= 1, a given order or missing ' +
      'score values',
    () => {
      const options = { seed: 'bad' };
      expect(() => calibrateGlrThresholds({ ...small, countB: 0 }, options)).toThrow(
        /calibrateGlrThresholds: group sizes: expected at least one row in each of the two groups/,
      );
      expect(() => calibrateGlrThresholds({ ...small, tolerance: 1 }, options)).toThrow(
        /calibrateGlrThresholds: tolerance: expected a number in \(0, 1\), found 1/,
      );
      expect(() => calibrateGlrThresholds({ ...small, order: 'given' as 'random' }, options)).toThrow(
        /calibrateGlrThresholds: order/,
      );
      expect(() => calibrateGlrThresholds({ ...small, access: 'score' }, options)).toThrow(
        /calibrateGlrThresholds: values/,
      );
      expect(() => calibrateGlrThresholds({ ...small, alpha: 0.6, beta: 0.5 }, options)).toThrow(/alpha \+ beta/);
      expect(() => calibrateGlrThresholds({ ...small, budget: 0 }, options)).toThrow(InputError);
    },
  );
});

describe('vacuousCalibration(record) of a pool the GLR cannot decide', () => {
  it('refuses the certificate with CANNOT_DECIDE naming betting, rather than thresholds no audit reaches', () => {
    // Scores constant within each group (0.4 and 0.7, a gap three times the tolerance): the
    // guarded Gaussian GLR never starts, so before exhaustion (budget 100 of 500 rows) nothing decides.
    const group = Uint8Array.from({ length: 500 }, (_, i) => (i < 300 ? 0 : 1));
    const value = Float64Array.from(group, (g) => (g === 0 ? 0.4 : 0.7));
    const setting: CalibrationSetting = { ...small, access: 'score', budget: 100, group, value };
    const record = calibrationRecord(calibrateGlrThresholds(setting, { seed: 'constant', paths: 200 }));
    expect(record.certified).toBe(true); // vacuously: no audit ever errs, since none decides
    expect(vacuousCalibration(record)?.message).toMatch(
      new RegExp(
        String.raw`: this test cannot decide on this pool: P\(inconclusive\) 1\.000 at gap 0\.200 \(the ` +
          String.raw`price\) exceeds 1 - beta = 0\.800; test betting can \(--test betting\)`,
      ),
    );
  });

  it('keeps a calibration that decides', () => {
    const record = calibrationRecord(
      calibrateGlrThresholds({ ...small, budget: 500 }, { seed: 'decides', paths: 300 }),
    );
    expect(vacuousCalibration(record)).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { countPool } from '../../src/audit/calibration/count-pool.js';
import { createSequentialTest } from '../../src/audit/create-sequential-test.js';
import { operatingCurve } from '../../src/audit/operating-characteristic-curve.js';
import { mergeAuditOutcomes, operatingPoint, simulateAudits } from '../../src/audit/operating-characteristics.js';
import { prepareAudit } from '../../src/audit/prepare-audit.js';
import { generateSyntheticPool } from '../../src/data/synthetic-pool.js';

describe('operatingPoint(outcomes)', () => {
  it(
    'gives rates with binomial standard errors, the mean queries with its standard error and numpy-style ' +
      'quantiles',
    () => {
      const point = operatingPoint({ reject: 3, accept: 5, inconclusive: 2, queries: [5, 1, 9, 3, 3, 7, 2, 8, 4, 10] });
      expect(point.rejectRate).toBe(0.3);
      expect(point.rejectStandardError).toBeCloseTo(Math.sqrt((0.3 * 0.7) / 10), 15);
      expect(point.inconclusiveRate).toBe(0.2);
      // python3 -c "import numpy as np; q=[5,1,9,3,3,7,2,8,4,10]; print([np.quantile(q,p) for p in (.1,.25,.5,.75,.9)],
      // np.mean(q), np.std(q,ddof=1)/np.sqrt(10))"
      expect(point.meanQueries).toBe(5.2);
      expect(point.meanQueriesStandardError).toBeCloseTo(0.9865765724632494, 14);
      expect(point.queryQuantiles).toEqual({ p10: 1.9, p25: 3, p50: 4.5, p75: 7.75, p90: 9.1 });
    },
  );
});

describe('simulateAudits(prepared, test, budget, order, seed, firstReplicate, count)', () => {
  it('chunks of replicates concatenate to the same outcomes as one run (any split over threads)', () => {
    const prepared = prepareAudit(
      countPool({ countA: 600, positivesA: 240, countB: 400, positivesB: 190 }),
      'sp',
      'decision',
    );
    const test = createSequentialTest(prepared, {
      test: 'betting',
      tolerance: 0.05,
      alpha: 0.05,
      beta: 0.2,
      order: 'random',
    });
    const whole = simulateAudits(prepared, test, 1000, 'random', 'chunks', 0, 30);
    const parts = mergeAuditOutcomes([
      simulateAudits(prepared, test, 1000, 'random', 'chunks', 0, 10),
      simulateAudits(prepared, test, 1000, 'random', 'chunks', 10, 20),
    ]);
    expect(parts).toEqual(whole);
  });
});

describe('operatingCurve(pool, settings)', () => {
  it(
    'estimates P(reject) rising with the true gap across the tolerance, with the moved pools at the target ' + 'gaps',
    () => {
      const pool = generateSyntheticPool({
        size: 4000,
        groupShare: 0.4,
        labelRate: [0.45, 0.4],
        decisionRate: [0.4, 0.4],
        logitScale: 1,
        seed: 'curve',
      });
      const curve = operatingCurve(pool, {
        metric: 'sp',
        access: 'decision',
        gaps: [0, 0.05, 0.25],
        move: 're-decide',
        testSettings: { test: 'wald-glr', tolerance: 0.05, alpha: 0.05, beta: 0.2, order: 'random' },
        budget: 4000,
        replicates: 200,
        seed: 'curve',
      });
      expect(curve.map((p) => p.decisionGap)).toEqual([0, 0.05, 0.25].map((g) => expect.closeTo(g, 12)));
      expect(curve[0].point.rejectRate).toBeLessThan(curve[2].point.rejectRate);
      expect(curve[2].point.rejectRate).toBe(1);
      expect(curve[0].point.acceptRate).toBeGreaterThan(0.5);
    },
  );
});

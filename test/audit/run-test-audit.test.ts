import { describe, expect, it } from 'vitest';
import { countPool } from '../../src/audit/calibration/count-pool.js';
import { prepareAudit } from '../../src/audit/prepare-audit.js';
import { runTestAudit } from '../../src/audit/run-test-audit.js';
import { runSequentialAudit } from '../../src/audit/sequential-audit.js';
import { generateSyntheticPool } from '../../src/data/synthetic-pool.js';
import { BernoulliGlrStream } from '../../src/stats/bernoulli-glr-stream.js';
import { GaussianGlrStream } from '../../src/stats/gaussian-glr-stream.js';
import { GlrThresholdTest } from '../../src/stats/glr-threshold-test.js';
import { sequentialThresholds } from '../../src/stats/thresholds.js';
import { createRandom, deriveSeed } from '../../src/util/random.js';

const recipe = {
  size: 6000,
  groupShare: 0.4,
  labelRate: [0.45, 0.4],
  decisionRate: [0.4, 0.36],
  logitScale: 1,
  seed: 'run-test-audit',
};

describe('runTestAudit(prepared, test, budget, order, random)', () => {
  it(
    "with GlrThresholdTest at Wald thresholds gives exactly runSequentialAudit's decision and queries (decision " +
      'and score access)',
    () => {
      const pool = generateSyntheticPool(recipe);
      const { upper, lower } = sequentialThresholds(0.05, 0.2);
      for (const access of ['decision', 'score'] as const) {
        for (const minimumPerGroup of [1, 5]) {
          const prepared = prepareAudit(pool, 'sp', access);
          const stream = access === 'decision' ? new BernoulliGlrStream() : new GaussianGlrStream();
          const test = new GlrThresholdTest(stream, 0.05, upper, lower, minimumPerGroup);
          for (let r = 0; r < 40; r++) {
            const seed = deriveSeed('equivalence', access, r);
            const paper = runSequentialAudit(
              prepared,
              {
                tolerance: 0.05,
                scoreTolerance: 0.05,
                logitTolerance: 0.2,
                budget: 4000,
                alpha: 0.05,
                beta: 0.2,
                minimumPerGroup,
              },
              createRandom(seed),
              { fixedSample: false },
            );
            const ours = runTestAudit(prepared, test, 4000, 'random', createRandom(seed));
            expect(ours).toEqual({ decision: paper.decision, queries: paper.queries });
            expect(test.statistic).toBe(paper.statistic);
          }
        }
      }
    },
  );

  it('stops at min(budget, pool size) and leaves the scratch orders as it found them', () => {
    const prepared = prepareAudit(
      countPool({ countA: 30, positivesA: 10, countB: 20, positivesB: 7 }),
      'sp',
      'decision',
    );
    const never = new GlrThresholdTest(new BernoulliGlrStream(), 0.05, 1e9, -1e9);
    expect(runTestAudit(prepared, never, 7, 'random', createRandom('cap'))).toEqual({
      decision: 'inconclusive',
      queries: 7,
    });
    expect(runTestAudit(prepared, never, 1000, 'balanced', createRandom('cap'))).toEqual({
      decision: 'inconclusive',
      queries: 50,
    });
    expect(runTestAudit(prepared, never, 1000, 'given', null)).toEqual({ decision: 'inconclusive', queries: 50 });
    expect(Array.from(prepared.order)).toEqual(Array.from({ length: 50 }, (_, i) => i));
  });

  it('order "given" queries the rows in the pool\'s order; "balanced" alternates the groups', () => {
    const prepared = prepareAudit(countPool({ countA: 3, positivesA: 0, countB: 3, positivesB: 3 }), 'sp', 'decision');
    const seen: number[] = [];
    const recorder = {
      verdict: 0,
      reset() {},
      add(group: number) {
        seen.push(group);
      },
    };
    runTestAudit(prepared, recorder, 6, 'given', null);
    expect(seen).toEqual([0, 0, 0, 1, 1, 1]);
    seen.length = 0;
    runTestAudit(prepared, recorder, 6, 'balanced', createRandom('alternate'));
    expect(seen).toEqual([0, 1, 0, 1, 0, 1]);
  });
});

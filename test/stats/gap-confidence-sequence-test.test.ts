import { describe, expect, it } from 'vitest';
import { clopperPearsonLower } from '../../src/stats/clopper-pearson.js';
import { GapConfidenceSequenceTest } from '../../src/stats/gap-confidence-sequence-test.js';
import { ACCEPT, CONTINUE, REJECT } from '../../src/stats/sequential-test.js';
import { createRandom } from '../../src/util/random.js';
import { boundaryPools, decisions, type Pool, runToVerdict } from '../helpers/two-group-pools.js';

describe('GapConfidenceSequenceTest(countA, countB, tolerance, alpha, beta, integerValues)', () => {
  it(
    'on pools with |gap| = tolerance exactly: P(reject) <= alpha and P(accept) <= beta, queried to exhaustion ' +
      '(1000 seeded audits per pool)',
    () => {
      const alpha = 0.1;
      const beta = 0.2;
      const replicates = 1000;
      for (const pool of boundaryPools()) {
        const test = new GapConfidenceSequenceTest(pool.a.length, pool.b.length, 0.1, alpha, beta, pool.integer);
        const random = createRandom(`cs-boundary:${pool.name}`);
        let rejects = 0;
        let accepts = 0;
        for (let r = 0; r < replicates; r++) {
          const verdict = runToVerdict(test, pool, 'random', random);
          if (verdict === REJECT) rejects++;
          if (verdict === ACCEPT) accepts++;
        }
        expect(clopperPearsonLower(rejects, replicates, 0.999), `${pool.name}: rejects ${rejects}`).toBeLessThanOrEqual(
          alpha,
        );
        expect(clopperPearsonLower(accepts, replicates, 0.999), `${pool.name}: accepts ${accepts}`).toBeLessThanOrEqual(
          beta,
        );
      }
    },
  );

  it('gapLower and gapUpper bracket mean_b - mean_a and close on it when both groups are exhausted', () => {
    const test = new GapConfidenceSequenceTest(6, 4, 0.1, 0.05, 0.2, false);
    const a = [0.1, 0.4, 0.2, 0.9, 0.5, 0.3];
    const b = [0.8, 0.6, 0.7, 0.5];
    const gap = (0.8 + 0.6 + 0.7 + 0.5) / 4 - (0.1 + 0.4 + 0.2 + 0.9 + 0.5 + 0.3) / 6;
    for (let i = 0; i < 6; i++) {
      test.add(0, a[i]);
      if (i < 4) test.add(1, b[i]);
      expect(test.gapLower).toBeLessThanOrEqual(gap + 1e-12);
      expect(test.gapUpper).toBeGreaterThanOrEqual(gap - 1e-12);
    }
    expect(test.gapLower).toBeCloseTo(gap, 12);
    expect(test.gapUpper).toBeCloseTo(gap, 12);
    expect(test.verdict).toBe(REJECT);
  });

  it(
    'exhausting both groups decides exactly on counts: 8/20 - 7/20 = 0.05 stays undecided at tolerance 0.05, ' +
      '9/20 - 7/20 is rejected',
    () => {
      for (const [positivesB, expected] of [
        [8, CONTINUE],
        [9, REJECT],
      ] as const) {
        const test = new GapConfidenceSequenceTest(20, 20, 0.05, 1e-9, 1e-9, true);
        const pool: Pool = { name: 'exact', a: decisions(20, 7), b: decisions(20, positivesB), integer: true };
        for (let i = 0; i < 20; i++) {
          test.add(0, pool.a[i]);
          test.add(1, pool.b[i]);
        }
        expect(test.verdict).toBe(expected);
      }
    },
  );
});

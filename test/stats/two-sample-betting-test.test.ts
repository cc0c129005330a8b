import { describe, expect, it } from 'vitest';
import { clopperPearsonLower } from '../../src/stats/clopper-pearson.js';
import { ACCEPT, CONTINUE, REJECT } from '../../src/stats/sequential-test.js';
import { type BettingUnits, TwoSampleBettingTest } from '../../src/stats/two-sample-betting-test.js';
import { createRandom } from '../../src/util/random.js';
import { boundaryPools, decisions, type Pool, runToVerdict } from '../helpers/two-group-pools.js';

function bettingTest(
  pool: Pool,
  units: BettingUnits,
  tolerance: number,
  alpha: number,
  beta: number,
): TwoSampleBettingTest {
  return new TwoSampleBettingTest({
    countA: pool.a.length,
    countB: pool.b.length,
    tolerance,
    alpha,
    beta,
    units,
    integerValues: pool.integer,
  });
}

describe('TwoSampleBettingTest(settings)', () => {
  it(
    'on pools with |gap| = tolerance exactly: P(reject) <= alpha and P(accept) <= beta, queried to exhaustion ' +
      '(1000 seeded audits per pool and order)',
    () => {
      const alpha = 0.1;
      const beta = 0.2;
      const replicates = 1000;
      for (const pool of boundaryPools()) {
        for (const order of ['random', 'balanced'] as const) {
          const test = bettingTest(pool, order === 'random' ? 'proportional' : 'alternating', 0.1, alpha, beta);
          const random = createRandom(`boundary:${pool.name}:${order}`);
          let rejects = 0;
          let accepts = 0;
          for (let r = 0; r < replicates; r++) {
            const verdict = runToVerdict(test, pool, order, random);
            if (verdict === REJECT) rejects++;
            if (verdict === ACCEPT) accepts++;
          }
          // Consistent with the bounds: the one-sided 99.9% Clopper-Pearson lower bounds do not exceed them.
          expect(
            clopperPearsonLower(rejects, replicates, 0.999),
            `${pool.name}, ${order}: rejects ${rejects}`,
          ).toBeLessThanOrEqual(alpha);
          expect(
            clopperPearsonLower(accepts, replicates, 0.999),
            `${pool.name}, ${order}: accepts ${accepts}`,
          ).toBeLessThanOrEqual(beta);
        }
      }
    },
  );

  it(
    'decides clear cases: a gap of 0.3 against tolerance 0.1 is rejected and a gap of 0 accepted in every ' + 'audit',
    () => {
      const violating: Pool = { name: 'gap 0.3', a: decisions(300, 60), b: decisions(200, 100), integer: true };
      const fair: Pool = { name: 'gap 0', a: decisions(300, 90), b: decisions(200, 60), integer: true };
      const random = createRandom('clear');
      for (const order of ['random', 'balanced'] as const) {
        const units = order === 'random' ? 'proportional' : 'alternating';
        const reject = bettingTest(violating, units, 0.1, 0.05, 0.2);
        const accept = bettingTest(fair, units, 0.1, 0.05, 0.2);
        for (let r = 0; r < 50; r++) {
          expect(runToVerdict(reject, violating, order, random)).toBe(REJECT);
          expect(runToVerdict(accept, fair, order, random)).toBe(ACCEPT);
        }
      }
    },
  );

  it(
    'exhausting the pool decides exactly on counts: 8/20 - 7/20 = 0.05 stays undecided at tolerance 0.05, 9/20 ' +
      '- 7/20 is rejected',
    () => {
      // In doubles 0.4 - 0.35 = 0.05000000000000004 > 0.05; compared on counts the gap is exactly 0.05.
      for (const [positivesB, expected] of [
        [8, CONTINUE],
        [9, REJECT],
      ] as const) {
        const test = new TwoSampleBettingTest({
          countA: 20,
          countB: 20,
          tolerance: 0.05,
          alpha: 1e-9,
          beta: 1e-9,
          units: 'alternating',
          integerValues: true,
        });
        const a = decisions(20, 7);
        const b = decisions(20, positivesB);
        for (let i = 0; i < 20; i++) {
          test.add(0, a[i]);
          test.add(1, b[i]);
        }
        expect(test.verdict).toBe(expected);
      }
    },
  );

  it('logEvidence is 0 before the first betting unit and the first unit carries no bet', () => {
    const test = new TwoSampleBettingTest({
      countA: 50,
      countB: 50,
      tolerance: 0.1,
      alpha: 0.05,
      beta: 0.2,
      units: 'alternating',
      integerValues: true,
    });
    test.add(0, 1);
    expect(Array.from(test.logEvidence)).toEqual([0, 0, 0, 0]);
    test.add(1, 0);
    expect(test.usedDraws).toBe(2);
    expect(Array.from(test.logEvidence)).toEqual([0, 0, 0, 0]);
  });

  it(
    'proportional units follow the pool composition: with 300 and 200 rows a unit holds 1 or 2 draws of a and ' +
      'one of b',
    () => {
      const test = new TwoSampleBettingTest({
        countA: 300,
        countB: 200,
        tolerance: 0.1,
        alpha: 0.05,
        beta: 0.2,
        units: 'proportional',
        integerValues: true,
      });
      // Unit k needs ceil(1.5 k) draws of a and k of b: 2 and 1, then 3 and 2, then 5 and 3.
      test.add(0, 1);
      test.add(1, 1);
      expect(test.usedDraws).toBe(0);
      test.add(0, 0);
      expect(test.usedDraws).toBe(3);
      test.add(1, 0);
      expect(test.usedDraws).toBe(3);
      test.add(0, 1);
      expect(test.usedDraws).toBe(5);
    },
  );

  it('reset() forgets everything: the same draws give the same verdicts and evidence', () => {
    const pool = boundaryPools()[2];
    const test = bettingTest(pool, 'proportional', 0.1, 0.1, 0.2);
    const first = runToVerdict(test, pool, 'random', createRandom('replay'));
    const evidence = Array.from(test.logEvidence);
    expect(runToVerdict(test, pool, 'random', createRandom('replay'))).toBe(first);
    expect(Array.from(test.logEvidence)).toEqual(evidence);
  });
});

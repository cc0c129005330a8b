import { describe, expect, it } from 'vitest';
import { createSequentialTest, makeSequentialTest, type TestSettings } from '../../src/audit/create-sequential-test.js';
import { prepareAudit } from '../../src/audit/prepare-audit.js';
import { runTestAudit } from '../../src/audit/run-test-audit.js';
import { generateSyntheticPool } from '../../src/data/synthetic-pool.js';
import { GlrThresholdTest } from '../../src/stats/glr-threshold-test.js';
import { TwoSampleBettingTest } from '../../src/stats/two-sample-betting-test.js';
import { InputError } from '../../src/util/errors.js';
import { createRandom } from '../../src/util/random.js';

const pool = generateSyntheticPool({
  size: 3000,
  groupShare: 0.4,
  labelRate: [0.45, 0.4],
  decisionRate: [0.3, 0.6],
  logitScale: 1,
  seed: 'factory',
});
const base = { tolerance: 0.05, alpha: 0.05, beta: 0.2, order: 'random' as const };

describe('createSequentialTest(prepared, settings)', () => {
  it('builds the GLR with Wald or calibrated thresholds and the betting test sized for the pool', () => {
    const prepared = prepareAudit(pool, 'sp', 'decision');
    const wald = createSequentialTest(prepared, { ...base, test: 'wald-glr' }) as GlrThresholdTest;
    expect(wald).toBeInstanceOf(GlrThresholdTest);
    expect([wald.upper, wald.lower]).toEqual([Math.log(0.8 / 0.05), Math.log(0.2 / 0.95)]);
    const calibrated = createSequentialTest(prepared, {
      ...base,
      test: 'calibrated-glr',
      thresholds: { upper: 4.9, lower: -2.4 },
    }) as GlrThresholdTest;
    expect([calibrated.upper, calibrated.lower]).toEqual([4.9, -2.4]);
    const betting = createSequentialTest(prepared, {
      ...base,
      test: 'betting',
      order: 'balanced',
    }) as TwoSampleBettingTest;
    expect(betting).toBeInstanceOf(TwoSampleBettingTest);
    expect(betting.settings).toMatchObject({
      countA: prepared.countA,
      countB: prepared.countB,
      units: 'alternating',
      integerValues: true,
    });
  });

  it(
    'throws InputError naming the setting: logit access without declared bounds, the given order, missing or ' +
      'crossed thresholds',
    () => {
      const logits = prepareAudit(pool, 'sp', 'logit');
      expect(() => createSequentialTest(logits, { ...base, test: 'betting' })).toThrow(
        /test betting: logitBounds: expected declared bounds \{lower, upper\} of the logits/,
      );
      const decisions = prepareAudit(pool, 'sp', 'decision');
      expect(() => createSequentialTest(decisions, { ...base, test: 'betting', order: 'given' })).toThrow(
        /test betting: order: expected "random" or "balanced"/,
      );
      expect(() => createSequentialTest(decisions, { ...base, test: 'calibrated-glr' })).toThrow(
        /test calibrated-glr: thresholds: expected calibrated/,
      );
      expect(() =>
        createSequentialTest(decisions, { ...base, test: 'calibrated-glr', thresholds: { upper: -1, lower: 1 } }),
      ).toThrow(/thresholds: expected upper greater than lower/);
      expect(() => createSequentialTest(decisions, { ...base, test: 'wald-glr', tolerance: 1 })).toThrow(InputError);
      expect(() =>
        createSequentialTest(logits, { ...base, test: 'betting', logitBounds: { lower: 2, upper: -2 } }),
      ).toThrow(/logitBounds: expected finite numbers with lower < upper/);
    },
  );

  it(
    'with logit access and declared bounds rescales into [0, 1], and stops with InputError at a logit outside ' +
      'them',
    () => {
      const logits = prepareAudit(pool, 'sp', 'logit');
      let largest = 0;
      for (const value of logits.value) largest = Math.max(largest, Math.abs(value));
      const wide = createSequentialTest(logits, {
        ...base,
        test: 'betting',
        tolerance: 0.2,
        logitBounds: { lower: -largest, upper: largest },
      });
      expect(runTestAudit(logits, wide, 3000, 'random', createRandom('wide')).decision).toBe('reject');
      const narrow = createSequentialTest(logits, {
        ...base,
        test: 'betting',
        tolerance: 0.2,
        logitBounds: { lower: -0.5, upper: 0.5 },
      });
      expect(() => runTestAudit(logits, narrow, 3000, 'random', createRandom('narrow'))).toThrow(
        /logit of a queried row of group [ab]: expected a value within the declared logit bounds \[-0.5, 0.5\]/,
      );
      // The aborted audit restored the scratch order.
      expect(Array.from(logits.order)).toEqual(Array.from({ length: logits.size }, (_, i) => i));
    },
  );
});

describe('createSequentialTest(prepared, {test: unknown})', () => {
  it('names the unknown test before anything else', () => {
    const prepared = prepareAudit(pool, 'sp', 'decision');
    const settings = { ...base, test: 'bet' } as unknown as TestSettings;
    expect(() => createSequentialTest(prepared, settings)).toThrow(
      'createSequentialTest: test: expected wald-glr, calibrated-glr, given-thresholds, betting, ' +
        'confidence-sequence, found "bet"',
    );
  });
});

describe('makeSequentialTest(prepared, settings)', () => {
  it('builds what createSequentialTest builds on valid settings: the same decisions on the same order', () => {
    const prepared = prepareAudit(pool, 'sp', 'decision');
    for (const test of ['wald-glr', 'betting', 'confidence-sequence'] as const) {
      const settings = { ...base, test };
      const checked = runTestAudit(
        prepared,
        createSequentialTest(prepared, settings),
        4000,
        'random',
        createRandom(test),
      );
      const trusted = runTestAudit(
        prepared,
        makeSequentialTest(prepared, settings),
        4000,
        'random',
        createRandom(test),
      );
      expect(trusted).toEqual(checked);
    }
  });
});

describe('makeSequentialTest(prepared, settings) at the pool’s exhaustion', () => {
  // 400 rows, 40% in group b, decision rates 0.40 and 0.25: an SP gap of 0.15 read to its end.
  const small = generateSyntheticPool({
    size: 400,
    groupShare: 0.4,
    labelRate: [0.45, 0.4],
    decisionRate: [0.4, 0.25],
    logitScale: 1,
    seed: 'exhaustion',
  });
  const prepared = prepareAudit(small, 'sp', 'decision');
  const tally = (test: ReturnType<typeof makeSequentialTest>) => {
    const counts = { reject: 0, accept: 0, inconclusive: 0 };
    const random = createRandom('exhaustion-audits');
    for (let replicate = 0; replicate < 300; replicate++)
      counts[runTestAudit(prepared, test, 4000, 'random', random).decision]++;
    return counts;
  };

  it('calibrated-glr decides every audit, correctly; wald-glr keeps paper A’s inconclusive', () => {
    expect(prepared.oracleGap).toBeGreaterThan(0.1);
    // The docs' calibrated thresholds for 20,000 rows (docs/error-control.md): too far apart for 400 rows to reach
    // often.
    const calibrated = tally(
      makeSequentialTest(prepared, { ...base, test: 'calibrated-glr', thresholds: { upper: 5, lower: -2.5 } }),
    );
    expect(calibrated).toEqual({ reject: 300, accept: 0, inconclusive: 0 });
    const wald = tally(makeSequentialTest(prepared, { ...base, test: 'wald-glr' }));
    expect(wald.inconclusive).toBeGreaterThan(0);
    expect(wald.accept + wald.reject + wald.inconclusive).toBe(300);
  });
});

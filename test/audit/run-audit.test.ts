import { describe, expect, it } from 'vitest';
import { auditSettingsSchema } from '../../src/audit/audit-settings.js';
import { buildAuditTest } from '../../src/audit/build-audit-test.js';
import { prepareAudit } from '../../src/audit/prepare-audit.js';
import { runAudit } from '../../src/audit/run-audit.js';
import { runTestAuditWithFixedSample } from '../../src/audit/run-test-audit.js';
import { runSequentialAudit } from '../../src/audit/sequential-audit.js';
import { generateSyntheticPool } from '../../src/data/synthetic-pool.js';
import { createRandom, deriveSeed } from '../../src/util/random.js';
import { validate } from '../../src/util/schema.js';

const pool = generateSyntheticPool({
  size: 6000,
  groupShare: 0.4,
  labelRate: [0.45, 0.4],
  decisionRate: [0.4, 0.33],
  logitScale: 1,
  seed: 'run-audit',
});

describe('runAudit(prepared, settings, auditTest, order, random)', () => {
  it(
    'wald-glr in random or given order is runSequentialAudit itself: the same result, fixed-sample decision ' +
      'included',
    () => {
      for (const access of ['decision', 'score'] as const) {
        const settings = validate({ access, budget: 2500 }, auditSettingsSchema);
        const prepared = prepareAudit(pool, 'sp', access);
        const auditTest = buildAuditTest(prepared, settings);
        expect(auditTest.name).toBe('wald-glr');
        for (let r = 0; r < 20; r++) {
          const seed = deriveSeed('run-audit', access, r);
          expect(runAudit(prepared, settings, auditTest, 'random', createRandom(seed))).toEqual(
            runSequentialAudit(prepared, settings, createRandom(seed)),
          );
        }
        expect(runAudit(prepared, settings, auditTest, 'given', null)).toEqual(
          runSequentialAudit(prepared, settings, null),
        );
      }
    },
  );

  it(
    "runTestAuditWithFixedSample's fixed-sample decision is runSequentialAudit's on the same order, whatever " +
      'the test stopped at',
    () => {
      const settings = validate({ budget: 3000, test: 'betting' }, auditSettingsSchema);
      const prepared = prepareAudit(pool, 'sp', 'decision');
      const betting = buildAuditTest(prepared, settings).test;
      for (let r = 0; r < 20; r++) {
        const seed = deriveSeed('fixed', r);
        const ours = runTestAuditWithFixedSample(prepared, betting, 3000, 'random', createRandom(seed), 0.05);
        const paper = runSequentialAudit(prepared, settings, createRandom(seed));
        expect([ours.fixedDecision, ours.fixedGap, ours.fixedSamples]).toEqual([
          paper.fixedDecision,
          paper.fixedGap,
          paper.fixedSamples,
        ]);
      }
      // The scratch order is back as it was.
      expect(Array.from(prepared.order.subarray(0, 5))).toEqual([0, 1, 2, 3, 4]);
    },
  );

  it(
    'the betting test reports statistic NaN; the confidence-sequence test its interval for the gap, which holds ' +
      'the pool gap here',
    () => {
      const prepared = prepareAudit(pool, 'sp', 'decision');
      const betting = validate({ test: 'betting' }, auditSettingsSchema);
      expect(
        runAudit(prepared, betting, buildAuditTest(prepared, betting), 'balanced', createRandom('b')).statistic,
      ).toBeNaN();
      const sequence = validate({ test: 'confidence-sequence' }, auditSettingsSchema);
      const result = runAudit(prepared, sequence, buildAuditTest(prepared, sequence), 'random', createRandom('cs'));
      const [lower, upper] = result.gapInterval as readonly [number, number];
      expect(lower).toBeLessThanOrEqual(prepared.oracleSignedGap);
      expect(upper).toBeGreaterThanOrEqual(prepared.oracleSignedGap);
    },
  );
});

import { describe, expect, it } from 'vitest';
import { auditSettingsSchema } from '../../src/audit/audit-settings.js';
import { buildAuditTest } from '../../src/audit/build-audit-test.js';
import type { AuditPool } from '../../src/audit/pool.js';
import { prepareAudit } from '../../src/audit/prepare-audit.js';
import { pooledVarianceOf, varianceRefusal } from '../../src/audit/variance-refusal.js';
import { InputError } from '../../src/util/errors.js';
import { validateInput } from '../../src/util/schema.js';

/** A score pool: group a's scores then group b's. */
function scorePool(scoresA: readonly number[], scoresB: readonly number[]): AuditPool {
  const size = scoresA.length + scoresB.length;
  const group = new Uint8Array(size).fill(1, scoresA.length);
  const score = Float64Array.from([...scoresA, ...scoresB]);
  return {
    size,
    group,
    label: new Uint8Array(size).fill(1),
    decision: Uint8Array.from(score, (value) => (value > 0.5 ? 1 : 0)),
    score,
    logit: Float64Array.from(score, (value) => Math.log(value / (1 - value))),
    id: null,
    source: 'pool.csv',
  };
}

const repeat = (value: number, count: number) => Array.from({ length: count }, () => value);

describe('varianceRefusal(prepared, tolerance)', () => {
  it('pooledVarianceOf(prepared) is RSS / (N - 2): groups {0.2, 0.4}, {0.6, 0.8} give 0.04 / 2', () => {
    expect(pooledVarianceOf(prepareAudit(scorePool([0.2, 0.4], [0.6, 0.8]), 'sp', 'score'))).toBeCloseTo(0.02, 15);
  });

  it('refuses constant groups: "cannot start: zero variance", naming betting', () => {
    const refusal = varianceRefusal(prepareAudit(scorePool(repeat(0.4, 50), repeat(0.7, 30)), 'sp', 'score'), 0.05);
    expect(refusal).toBeInstanceOf(InputError);
    expect(refusal?.message).toMatch(/^pool\.csv: score of the sp pool: cannot start: zero variance .*--test betting/);
  });

  it('refuses a negligible variance, accepts a usable one and decision access', () => {
    const tiny = scorePool(
      repeat(0.4, 50).map((value, i) => value + i * 1e-9),
      repeat(0.7, 30),
    );
    expect(varianceRefusal(prepareAudit(tiny, 'sp', 'score'), 0.05)?.message).toMatch(/negligible variance/);
    expect(varianceRefusal(prepareAudit(tiny, 'sp', 'decision'), 0.05)).toBeNull();
    const usable = scorePool([0.2, 0.4, 0.3], [0.6, 0.8]);
    expect(varianceRefusal(prepareAudit(usable, 'sp', 'score'), 0.05)).toBeNull();
  });

  it('buildAuditTest refuses the GLR tests on constant scores, before any calibration; betting builds', () => {
    const prepared = prepareAudit(scorePool(repeat(0.4, 50), repeat(0.7, 30)), 'sp', 'score');
    const settings = (test: string) =>
      validateInput({ access: 'score', test }, auditSettingsSchema, (path) => path.join('.'));
    for (const test of ['wald-glr', 'calibrated-glr']) {
      expect(() => buildAuditTest(prepared, settings(test))).toThrow(/cannot start: zero variance/);
    }
    expect(buildAuditTest(prepared, settings('betting')).name).toBe('betting');
  });
});

describe('prepareAudit(pool, metric, access) on values whose squares overflow', () => {
  it('refuses a logit above 1e100 in absolute value, naming the row', () => {
    const pool = scorePool([0.2, 0.4], [0.6, 0.8]);
    pool.logit![2] = -1e200;
    expect(() => prepareAudit(pool, 'sp', 'logit')).toThrow(
      /pool\.csv: row 3, column "logit": expected a finite value within ±1e\+100/,
    );
  });
});

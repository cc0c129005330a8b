import { describe, expect, it } from 'vitest';
import { auditSettingsSchema } from '../../src/audit/audit-settings.js';
import { CALIBRATED_PROXY_START, startRuleOf, testOf, testSettingsProblem } from '../../src/audit/audit-test.js';
import { validate } from '../../src/util/schema.js';

describe('testOf(settings)', () => {
  it('is the test setting when given, else the GLR its thresholds name (wald-glr by default: paper A)', () => {
    expect(testOf({})).toBe('wald-glr');
    expect(testOf({ thresholds: 'wald' })).toBe('wald-glr');
    expect(testOf({ thresholds: 'calibrated' })).toBe('calibrated-glr');
    expect(testOf({ thresholds: { upper: 5, lower: -2 } })).toBe('given-thresholds');
    expect(testOf({ test: 'betting' })).toBe('betting');
  });
});

describe('startRuleOf(test, access, minimumPerGroup)', () => {
  it('is 5 for calibrated-glr with score or logit access, 1 otherwise (paper A), and minimumPerGroup when set', () => {
    expect(CALIBRATED_PROXY_START).toBe(5);
    expect(startRuleOf('calibrated-glr', 'score')).toBe(5);
    expect(startRuleOf('calibrated-glr', 'logit')).toBe(5);
    expect(startRuleOf('calibrated-glr', 'decision')).toBe(1);
    expect(startRuleOf('wald-glr', 'score')).toBe(1);
    expect(startRuleOf('calibrated-glr', 'score', 1)).toBe(1);
    expect(startRuleOf('betting', 'logit', 3)).toBe(3);
  });
});

describe('testSettingsProblem(settings)', () => {
  it('finds nothing wrong in consistent settings', () => {
    expect(testSettingsProblem({ access: 'decision' })).toBeUndefined();
    expect(
      testSettingsProblem({ access: 'score', test: 'calibrated-glr', thresholds: 'calibrated', order: 'balanced' }),
    ).toBeUndefined();
    expect(
      testSettingsProblem({
        access: 'logit',
        test: 'betting',
        logitBounds: { lower: -8, upper: 8 },
        logitTolerance: 0.2,
      }),
    ).toBeUndefined();
  });

  it(
    'names the key: thresholds that do not belong to the test, crossed thresholds, logits without bounds, the ' +
      'given order',
    () => {
      expect(testSettingsProblem({ access: 'decision', test: 'wald-glr', thresholds: 'calibrated' })?.key).toBe(
        'thresholds',
      );
      expect(testSettingsProblem({ access: 'decision', test: 'calibrated-glr', thresholds: 'wald' })?.key).toBe(
        'thresholds',
      );
      // Thresholds given by hand never run under the calibrated test's name.
      expect(
        testSettingsProblem({ access: 'decision', test: 'calibrated-glr', thresholds: { upper: 5, lower: -2 } })
          ?.expected,
      ).toMatch(/given \{upper, lower\}: test given-thresholds, without an error guarantee/);
      expect(testSettingsProblem({ access: 'decision', test: 'given-thresholds' })?.key).toBe('thresholds');
      expect(testSettingsProblem({ access: 'decision', test: 'given-thresholds', thresholds: 'calibrated' })?.key).toBe(
        'thresholds',
      );
      expect(testSettingsProblem({ access: 'decision', test: 'betting', thresholds: 'calibrated' })?.expected).toMatch(
        /thresholds belong to the GLR tests/,
      );
      expect(testSettingsProblem({ access: 'decision', thresholds: { upper: 1, lower: 2 } })).toEqual({
        key: 'thresholds',
        expected: 'upper greater than lower',
        found: { upper: 1, lower: 2 },
      });
      expect(testSettingsProblem({ access: 'decision', thresholds: { upper: 2, lower: 1 } })?.key).toBe(
        'thresholds.lower',
      );
      expect(testSettingsProblem({ access: 'logit', test: 'betting' })?.key).toBe('logitBounds');
      expect(
        testSettingsProblem({ access: 'logit', test: 'confidence-sequence', logitBounds: { lower: 1, upper: -1 } })
          ?.key,
      ).toBe('logitBounds');
      expect(
        testSettingsProblem({
          access: 'logit',
          test: 'betting',
          logitBounds: { lower: -0.1, upper: 0.1 },
          logitTolerance: 0.2,
        })?.key,
      ).toBe('logitTolerance');
      expect(testSettingsProblem({ access: 'decision', test: 'betting', order: 'given' })?.key).toBe('order');
      expect(testSettingsProblem({ access: 'decision', thresholds: 'calibrated', order: 'given' })?.key).toBe('order');
      expect(
        testSettingsProblem({ access: 'decision', thresholds: { upper: 5, lower: -2 }, order: 'given' }),
      ).toBeUndefined();
    },
  );
});

describe('auditSettingsSchema with the keys that choose the test', () => {
  it('leaves absent keys absent (paper A settings stay as they were) and accepts each test', () => {
    const paperA = validate({}, auditSettingsSchema);
    expect(Object.keys(paperA).sort()).toEqual([
      'access',
      'alpha',
      'beta',
      'budget',
      'logitTolerance',
      'metric',
      'scoreTolerance',
      'tolerance',
    ]);
    expect(validate({ test: 'betting', order: 'balanced' }, auditSettingsSchema)).toMatchObject({
      test: 'betting',
      order: 'balanced',
    });
    expect(validate({ thresholds: { upper: 4.85, lower: -2.4 } }, auditSettingsSchema).thresholds).toEqual({
      upper: 4.85,
      lower: -2.4,
    });
    expect(
      validate({ thresholds: 'calibrated', calibration: { paths: 500 } }, auditSettingsSchema).calibration,
    ).toEqual({ paths: 500, seed: 'calibrate', confidence: 0.95 });
  });

  it(
    'refuses what does not fit together, naming the key (tolerance >= 1, upper <= lower, logits without ' + 'bounds)',
    () => {
      expect(() => validate({ tolerance: 1 }, auditSettingsSchema)).toThrow(
        /tolerance: expected a number in \(0, 1\), found 1/,
      );
      expect(() => validate({ thresholds: { upper: -1, lower: 2 } }, auditSettingsSchema)).toThrow(
        /thresholds: expected upper greater than lower/,
      );
      expect(() => validate({ access: 'logit', test: 'betting' }, auditSettingsSchema)).toThrow(
        /logitBounds: expected declared bounds/,
      );
      expect(() => validate({ test: 'wald-glr', thresholds: 'calibrated' }, auditSettingsSchema)).toThrow(
        /thresholds: expected "wald" or nothing with test wald-glr/,
      );
    },
  );
});

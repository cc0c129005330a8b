import { afterEach, describe, expect, it } from 'vitest';
import { auditSettingsProperties } from '../../src/audit/audit-settings.js';
import { flagOfKey, kebabCase, settingOptions, settingsOfFlags } from '../../src/cli/schema-options.js';
import { schema } from '../../src/util/schema.js';
import { runCliInProcess } from '../helpers/cli.js';

const properties = {
  scoreTolerance: schema.number({ minimum: 0, maximum: 1, default: 0.05, description: 'A tolerance.' }),
  metric: schema.enumOf(['sp', 'eo'], { default: 'sp', description: 'The metric.' }),
  seed: schema.optional(schema.seed({ description: 'A seed.' })),
  bounds: schema.optional(
    schema.object(
      { lower: schema.number({ description: 'Low.' }), upper: schema.number({ description: 'High.' }) },
      { description: 'Bounds.' },
    ),
  ),
  calibration: schema.optional(
    schema.object(
      {
        paths: schema.integer({ minimum: 100, default: 4000, description: 'Paths.' }),
        baseRates: schema.optional(schema.array(schema.number({ description: 'A rate.' }), { description: 'Rates.' })),
      },
      { description: 'Calibration.' },
    ),
  ),
};

describe('settingOptions(properties)', () => {
  it('makes one kebab-case flag per key, the type, choices and description from the schema, no default set', () => {
    const options = settingOptions(properties);
    expect(Object.keys(options)).toEqual([
      'score-tolerance',
      'metric',
      'seed',
      'bounds',
      'calibration-paths',
      'calibration-base-rates',
    ]);
    expect(options['score-tolerance']).toMatchObject({ type: 'number', defaultDescription: '0.05' });
    expect(options['score-tolerance'].describe).toBe('A tolerance. (a number in [0, 1])');
    expect(options.metric).toMatchObject({ type: 'string', choices: ['sp', 'eo'], defaultDescription: '"sp"' });
    expect(options.bounds.describe).toBe('LOWER,UPPER: Bounds.');
    for (const option of Object.values(options)) expect(option).not.toHaveProperty('default');
  });

  it('kebabCase(key) spells a key as its flag', () => {
    expect(kebabCase('minimumPerGroup')).toBe('minimum-per-group');
    expect(kebabCase('alpha')).toBe('alpha');
  });
});

describe('settingsOfFlags(argv, properties)', () => {
  it('passes on only the flags given (so the schema fills in the defaults)', () => {
    expect(settingsOfFlags({ metric: 'eo', 'score-tolerance': undefined }, properties)).toEqual({ metric: 'eo' });
    expect(settingsOfFlags({}, properties)).toEqual({});
  });

  it('splits comma-separated flags and nests flattened keys', () => {
    expect(
      settingsOfFlags({ bounds: '-3, 4', 'calibration-paths': 500, 'calibration-base-rates': '0,0.5,1' }, properties),
    ).toEqual({ bounds: { lower: -3, upper: 4 }, calibration: { paths: 500, baseRates: [0, 0.5, 1] } });
  });

  it('throws naming the flag for a malformed comma-separated value', () => {
    expect(() => settingsOfFlags({ bounds: '3' }, properties)).toThrow(
      '--bounds: expected two numbers LOWER,UPPER, found "3"',
    );
    expect(() => settingsOfFlags({ 'calibration-base-rates': '0,,1' }, properties)).toThrow(
      /--calibration-base-rates: expected comma-separated numbers/,
    );
  });
});

describe('flagOfKey(properties, key, extra)', () => {
  it('names the flag of a key path as a message gives it', () => {
    expect(flagOfKey(properties, 'scoreTolerance')).toBe('--score-tolerance');
    expect(flagOfKey(properties, 'calibration.baseRates.2')).toBe('--calibration-base-rates');
    expect(flagOfKey(properties, 'bounds.lower')).toBe('--bounds');
    expect(flagOfKey(properties, 'thresholds.upper', { 'thresholds.upper': '--upper' })).toBe('--upper');
    expect(flagOfKey(properties, 'settings')).toBe('settings');
  });
});

describe('fairaudit audit follows the audit-settings schema', () => {
  // A pool whose hard-decision gap is 0.1 (rates 0.3 and 0.4): a violation at δ = 0.05, compliant at δ = 0.2.
  const recipe = '{"size":4000,"groupShare":0.5,"labelRate":[0.5,0.5],"decisionRate":[0.3,0.4],"seed":"default"}';
  const tolerance = auditSettingsProperties.tolerance as { default?: unknown };
  const shipped = tolerance.default;
  afterEach(() => {
    tolerance.default = shipped;
  });

  async function auditTolerance(): Promise<{ tolerance: number; oracleDecision: string; help: string }> {
    const run = await runCliInProcess(['audit', '--synthetic', recipe, '--seed', '1', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const help = await runCliInProcess(['audit', '--help']);
    const summary = JSON.parse(run.stdout) as { tolerance: number; oracleDecision: string };
    return { tolerance: summary.tolerance, oracleDecision: summary.oracleDecision, help: help.stdout };
  }

  it('a changed default of tolerance changes the audit and its --help', async () => {
    const before = await auditTolerance();
    expect(before.tolerance).toBe(0.05);
    expect(before.oracleDecision).toBe('reject');
    expect(before.help).toMatch(/--tolerance[\s\S]*?\[default: 0\.05\]/);
    tolerance.default = 0.2;
    const after = await auditTolerance();
    expect(after.tolerance).toBe(0.2);
    expect(after.oracleDecision).toBe('accept');
    expect(after.help).toMatch(/--tolerance[\s\S]*?\[default: 0\.2\]/);
  });
});

import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/harness/config.js';
import { InputError } from '../../../src/util/errors.js';

function configText(passProbability: number): string {
  return [
    'experiment: respir-settings-test',
    'kind: respir',
    'seed: 1',
    'replicates: 10',
    'settings:',
    '  candidates: { synthetic: { size: 2000, minorityShare: 0.1, positiveRates: [0.2, 0.75] } }',
    '  auditSetSize: 400',
    '  tolerance: 0.5',
    `  passProbability: ${passProbability}`,
    '',
  ].join('\n');
}

describe('respirSettingsSchema: passProbability', () => {
  it('accepts 1 − δ from 0.5 (δ ≤ ½, as Theorems 1 and 3 assume) and rejects less, naming the setting', () => {
    expect(() => parseConfig(configText(0.5), 'test.yaml')).not.toThrow();
    expect(() => parseConfig(configText(0.4), 'test.yaml')).toThrow(InputError);
    expect(() => parseConfig(configText(0.4), 'test.yaml')).toThrow(/passProbability/);
  });
});

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configFromObject, loadConfig, parseOverride, readConfigObject } from '../../src/harness/config.js';
import { InputError } from '../../src/util/errors.js';
import { packageRoot } from '../../src/util/paths.js';

const quickstart = join(packageRoot(), 'configs', 'quickstart.yaml');

describe('configFromObject(raw, file, overrides)', () => {
  it('validates an object exactly as loadConfig validates the YAML it came from', () => {
    const fromYaml = loadConfig(quickstart, [parseOverride('budget=2000')]);
    const fromObject = configFromObject(readConfigObject(quickstart), quickstart, [parseOverride('budget=2000')]);
    // The same values; cellAt is a function of each (compared through the cells it makes).
    const { cellAt: _object, ...objectValues } = fromObject;
    const { cellAt: _yaml, ...yamlValues } = fromYaml;
    expect(objectValues).toEqual(yamlValues);
  });

  it('leaves the object it is given untouched and applies --set overrides after it', () => {
    const raw = readConfigObject(quickstart);
    const copy = structuredClone(raw);
    const config = configFromObject({ ...raw, replicates: 3 }, quickstart, [parseOverride('replicates=4')]);
    expect(config.replicates).toBe(4);
    expect(raw).toEqual(copy);
  });

  it('throws InputError naming the file and the key path (no line: the config was built in code)', () => {
    const raw = {
      experiment: 'built',
      kind: 'sequential-audit',
      seed: 1,
      settings: { pool: { synthetic: { decisionRate: [0.4, 0.3] } }, minimumPerGroup: 0 },
    };
    expect(() => configFromObject(raw, 'built in a test', [])).toThrow(InputError);
    expect(() => configFromObject(raw, 'built in a test', [])).toThrow(
      /^built in a test: settings\.minimumPerGroup: expected an integer in \[1, 50000000\], found 0$/,
    );
  });

  it('accepts minimumPerGroup, like every setting of the audit kernel', () => {
    const raw = {
      experiment: 'built',
      kind: 'sequential-audit',
      seed: 1,
      settings: { pool: { synthetic: { decisionRate: [0.4, 0.3] } }, minimumPerGroup: 5 },
    };
    expect(configFromObject(raw, 'built in a test').cells[0].settings.minimumPerGroup).toBe(5);
  });
});

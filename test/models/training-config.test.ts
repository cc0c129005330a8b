import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadModelTrainingConfig } from '../../src/models/training-config.js';
import { packageRoot } from '../../src/util/paths.js';

const folder = mkdtempSync(join(tmpdir(), 'fairaudit-model-config-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function configFile(text: string): string {
  const path = join(folder, `config-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(path, text);
  return path;
}

describe('loadModelTrainingConfig(file)', () => {
  it('accepts every config in papers/*/configs/models/', () => {
    const directories = ['paper-a', 'paper-b'].map((paper) =>
      join(packageRoot(), 'papers', paper, 'configs', 'models'),
    );
    const files = directories.flatMap((directory) =>
      readdirSync(directory)
        .filter((name) => name.endsWith('.yaml'))
        .map((name) => join(directory, name)),
    );
    expect(files.length).toBeGreaterThanOrEqual(3);
    for (const file of files) {
      const config = loadModelTrainingConfig(file);
      expect(config.models.length).toBeGreaterThan(0);
    }
  });

  it('fills in the seed and threads defaults and keeps seeds as strings', () => {
    const config = loadModelTrainingConfig(
      configFile('dataset: adult\nsplit: {scheme: paper-a, seed: 3}\nmodels: [robust-base]\n'),
    );
    expect(config).toEqual({
      dataset: 'adult',
      split: { scheme: 'paper-a', seed: '3' },
      models: ['robust-base'],
      seed: '2026',
      threads: 2,
    });
  });

  it('throws InputError naming the file, the key, what was expected and what was found', () => {
    // An unknown model name is caught where the presets are known (presetsOfConfig, test/models/train-models.test.ts).
    const noModel = configFile('dataset: adult\nsplit: {scheme: paper-a, seed: 3}\nmodels: []\n');
    expect(() => loadModelTrainingConfig(noModel)).toThrow(/config-.*\.yaml: models: expected .*found/);
    const badFraction = configFile(
      'dataset: adult\nsplit: {scheme: paper-a, seed: 3, heldOutFraction: 1.5}\nmodels: [robust-base]\n',
    );
    expect(() => loadModelTrainingConfig(badFraction)).toThrow(/split\.heldOutFraction: expected .*found 1\.5/);
    expect(() => loadModelTrainingConfig(join(folder, 'absent.yaml'))).toThrow(
      /absent\.yaml: expected a readable YAML/,
    );
  });
});

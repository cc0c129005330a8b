import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/harness/config.js';
import { configReference } from '../../src/harness/config-reference.js';
import { findKindRunner } from '../../src/harness/kind-runners.js';
import { buildPlan } from '../../src/harness/plan.js';
import { packageRoot } from '../../src/util/paths.js';

function yamlFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return yamlFiles(path);
    return /\.ya?ml$/.test(name) ? [path] : [];
  });
}

/**
 * Folders of configs that hold other kinds of YAML than experiments (model-training
 * configs, papers/<paper>/configs/models/), with the loader that validates them (by
 * path, so this test does not tie the harness to their modules' types).
 */
const OTHER_CONFIG_FAMILIES = [
  {
    folder: /^papers\/[^/]+\/configs\/models\//,
    module: join('src', 'models', 'training-config.ts'),
    loader: 'loadModelTrainingConfig',
  },
];

const root = packageRoot();
const files = [
  ...yamlFiles(join(root, 'configs')),
  ...readdirSync(join(root, 'papers'))
    // A reproduction without YAML of its own (papers/multi-group reads the papers' model configs) has no configs/.
    .filter(
      (paper) =>
        statSync(join(root, 'papers', paper)).isDirectory() && existsSync(join(root, 'papers', paper, 'configs')),
    )
    .flatMap((paper) => yamlFiles(join(root, 'papers', paper, 'configs'))),
];

describe('every YAML file under configs/ and papers/*/configs/', () => {
  it('includes the quickstart', () => {
    expect(files.map((file) => relative(root, file))).toContain(join('configs', 'quickstart.yaml'));
  });
  for (const file of files) {
    const path = relative(root, file);
    const other = OTHER_CONFIG_FAMILIES.find((family) => family.folder.test(path));
    if (other) {
      it(`${other.loader}(${path}) validates`, async () => {
        const module = (await import(join(root, other.module))) as Record<string, (file: string) => unknown>;
        expect(module[other.loader](file)).toBeTruthy();
      });
      continue;
    }
    it(`loadConfig(${path}) validates and plans`, () => {
      const config = loadConfig(file);
      const plan = buildPlan(config, findKindRunner(config.kind)!);
      expect(plan.cells.length).toBeGreaterThan(0);
      expect(plan.tasks).toBe(plan.cells.length * config.replicates);
    });
  }
});

describe('docs/config-reference.md', () => {
  it('equals configReference() (regenerate: bin/fairaudit plan --reference > docs/config-reference.md)', () => {
    expect(readFileSync(join(root, 'docs', 'config-reference.md'), 'utf8')).toBe(configReference());
  });
});

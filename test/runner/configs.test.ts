import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/runner/config.js';
import { configReference } from '../../src/runner/config-reference.js';
import { findKind } from '../../src/runner/kinds.js';
import { buildPlan } from '../../src/runner/plan.js';
import { packageRoot } from '../../src/util/paths.js';

function yamlFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return yamlFiles(path);
    return /\.ya?ml$/.test(name) ? [path] : [];
  });
}

const root = packageRoot();
const files = yamlFiles(join(root, 'configs'));

describe('every YAML file under configs/', () => {
  it('includes the quickstart', () => {
    expect(files.map((file) => relative(root, file))).toContain(join('configs', 'quickstart.yaml'));
  });
  for (const file of files) {
    it(`loadConfig(${relative(root, file)}) validates and plans`, () => {
      const config = loadConfig(file);
      const plan = buildPlan(config, findKind(config.kind)!);
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

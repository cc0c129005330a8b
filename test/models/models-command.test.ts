import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { realDataMirror } from '../data/real-datasets.js';
import { spawnCliSync } from '../helpers/cli.js';

// End to end: spawn bin/fairaudit, which runs the compiled dist/ (the vitest global
// setup, test/setup/build.ts, builds it when it is missing or stale).
const scratch = mkdtempSync(join(tmpdir(), 'fairaudit-models-cli-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function fairaudit(environment: Record<string, string>, ...args: string[]) {
  return spawnCliSync(args, { env: environment });
}

describe('fairaudit models train CONFIG (spawned)', () => {
  it('exits 2 naming the file and key of a bad config', () => {
    const config = join(scratch, 'bad.yaml');
    writeFileSync(config, 'dataset: adult\nsplit: {scheme: paper-c, seed: 1}\nmodels: [robust-base]\n');
    const { code, stderr } = fairaudit({}, 'models', 'train', config);
    expect(code).toBe(2);
    expect(stderr).toMatch(/bad\.yaml: split\.scheme: expected .*paper-a.*found "paper-c"/);
  });

  it('exits 2 with the ways to provide a dataset that is missing', () => {
    const config = join(scratch, 'adult.yaml');
    writeFileSync(config, 'dataset: adult\nsplit: {scheme: paper-a, seed: 1}\nmodels: [unstable-base]\n');
    const empty = mkdtempSync(join(scratch, 'empty-'));
    const { code, stderr } = fairaudit(
      { FAIRAUDIT_DATA_DIR: empty },
      'models',
      'train',
      config,
      '--cache-dir',
      join(scratch, 'cache'),
    );
    expect(code).toBe(2);
    expect(stderr).toMatch(/adult/);
    expect(stderr).toMatch(/FAIRAUDIT_DATA_DIR/);
  });

  const compas = realDataMirror('compas/compas-scores-two-years.csv');
  if (compas.mirror === null) console.warn(compas.reason);
  it.skipIf(compas.mirror === null)('trains COMPAS Unstable-Base into the cache, then reads it back on the second call', () => {
    const config = join(scratch, 'compas.yaml');
    writeFileSync(config, 'dataset: compas\nsplit: {scheme: paper-b, seed: 1, protectedAttribute: race}\nmodels: [unstable-base]\n');
    const cache = join(scratch, 'compas-cache');
    const first = fairaudit({}, 'models', 'train', config, '--cache-dir', cache, '--json');
    expect(first.code).toBe(0);
    const [trained] = JSON.parse(first.stdout);
    expect(trained.fromCache).toBe(false);
    expect(trained.card.poolRows).toBe(2778);
    expect(existsSync(join(trained.directory, 'audit-pool.arrow'))).toBe(true);
    const second = fairaudit({}, 'models', 'train', config, '--cache-dir', cache, '--json');
    const [cached] = JSON.parse(second.stdout);
    expect(cached.fromCache).toBe(true);
    expect(cached.card.accuracy).toBe(trained.card.accuracy);
  });
});

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
  it.skipIf(compas.mirror === null)(
    'trains COMPAS Unstable-Base into the cache, then reads it back on the second call',
    () => {
      const config = join(scratch, 'compas.yaml');
      writeFileSync(
        config,
        'dataset: compas\nsplit: {scheme: paper-b, seed: 1, protectedAttribute: race}\nmodels: [unstable-base]\n',
      );
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
    },
  );

  it.skipIf(compas.mirror === null)(
    'with --model-seeds 3 --split-seeds 2 trains 4 seed pairs (the base pair first) and prints each axis spread',
    () => {
      const config = join(scratch, 'compas-seeds.yaml');
      writeFileSync(
        config,
        'dataset: compas\nsplit: {scheme: paper-b, seed: 1, protectedAttribute: race}\nmodels: ' +
          '[unstable-base]\nseed: 5\n',
      );
      const cache = join(scratch, 'compas-seeds-cache');
      const run = fairaudit(
        {},
        'models',
        'train',
        config,
        '--cache-dir',
        cache,
        '--model-seeds',
        '3',
        '--split-seeds',
        '2',
        '--json',
      );
      expect(run.code).toBe(0);
      const { pairs, variability } = JSON.parse(run.stdout);
      expect(pairs.map((pair: { splitSeed: string; modelSeed: string }) => [pair.splitSeed, pair.modelSeed])).toEqual([
        ['1', '5'],
        ['1', '5/1'],
        ['1', '5/2'],
        ['1/1', '5'],
      ]);
      expect(variability[0].modelSeeds.statisticalParityGap.count).toBe(3);
      expect(variability[0].splitSeeds.statisticalParityGap.count).toBe(2);
      // The base pair is the single run's model: the same cache entry as without the flags.
      const single = fairaudit({}, 'models', 'train', config, '--cache-dir', cache, '--json');
      const [model] = JSON.parse(single.stdout);
      expect(model.fromCache).toBe(true);
      expect(model.directory).toBe(pairs[0].models[0].directory);
      const text = fairaudit(
        {},
        'models',
        'train',
        config,
        '--cache-dir',
        cache,
        '--model-seeds',
        '3',
        '--split-seeds',
        '2',
      );
      expect(text.stdout).toMatch(/unstable-base +over 3 model seeds: accuracy/);
      expect(text.stdout).toMatch(/4 models \(4 seed pairs\) ready/);
    },
  );

  it('exits 2 naming --model-seeds when it is not a positive integer', () => {
    const config = join(scratch, 'adult-flags.yaml');
    writeFileSync(config, 'dataset: adult\nsplit: {scheme: paper-a, seed: 1}\nmodels: [unstable-base]\n');
    const { code, stderr } = fairaudit({}, 'models', 'train', config, '--model-seeds', '0');
    expect(code).toBe(2);
    expect(stderr).toMatch(/--model-seeds/);
  });
});

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { paperAModelPreset } from '../../papers/paper-a/models.js';
import { trainModels } from '../../src/models/train-models.js';
import {
  seedAxes,
  seedAxisOf,
  seedSeries,
  trainConfigsOverSeeds,
  trainFromConfigOverSeeds,
  trainModelsOverSeeds,
} from '../../src/models/train-seed-grid.js';
import { InputError } from '../../src/util/errors.js';
import { adultFixture, writeAdultManifest } from '../fixtures/adult-fixture.js';

const root = mkdtempSync(join(tmpdir(), 'fairaudit-seed-grid-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const fixture = adultFixture(300, 9);
mkdirSync(join(root, 'mirror', 'adult'), { recursive: true });
writeFileSync(join(root, 'mirror', 'adult', 'adult.data'), fixture.data);
writeFileSync(join(root, 'mirror', 'adult', 'adult.test'), fixture.test);
writeAdultManifest(join(root, 'manifests'), fixture);
const location = { dataDirectory: join(root, 'mirror'), manifestDirectory: join(root, 'manifests') };
const unstableBase = paperAModelPreset('unstable-base');
const unstableDp = paperAModelPreset('unstable-dp');
const request = { dataset: 'adult', split: { scheme: 'paper-a' as const, protectedAttribute: 'sex' }, ...location };

describe('seedSeries(base, count) and seedAxes(base, counts)', () => {
  it('seedSeries starts at the base seed and numbers the rest', () => {
    expect(seedSeries('paper-a-2026', 3)).toEqual(['paper-a-2026', 'paper-a-2026/1', 'paper-a-2026/2']);
    expect(seedSeries(2026, 1)).toEqual(['2026']);
    expect(() => seedSeries(1, 0)).toThrow(InputError);
    expect(() => seedSeries(1, 2.5)).toThrow(InputError);
  });

  it('seedAxes varies the model seed on the base split, then the split seed with the base model seed', () => {
    const base = { splitSeed: 's', modelSeed: 'm' };
    const pairs = seedAxes(base, { modelSeeds: 3, splitSeeds: 2 });
    expect(pairs).toEqual([
      { splitSeed: 's', modelSeed: 'm' },
      { splitSeed: 's', modelSeed: 'm/1' },
      { splitSeed: 's', modelSeed: 'm/2' },
      { splitSeed: 's/1', modelSeed: 'm' },
    ]);
    expect(pairs.map((pair) => seedAxisOf(base, pair))).toEqual(['base', 'model', 'model', 'split']);
    expect(seedAxes({ splitSeed: 1, modelSeed: 2 }, { modelSeeds: 1, splitSeeds: 1 })).toEqual([
      { splitSeed: '1', modelSeed: '2' },
    ]);
    expect(() => seedAxes(base, { modelSeeds: 0, splitSeeds: 1 })).toThrow(InputError);
  });
});

describe('trainModelsOverSeeds(request, presets, pairs, options)', () => {
  it(
    'gives for each pair the models trainModels gives with that split seed and model seed, from one shared ' + 'cache',
    async () => {
      const cacheDirectory = join(root, 'cache-a');
      const pairs = seedAxes({ splitSeed: 5, modelSeed: 'm' }, { modelSeeds: 2, splitSeeds: 2 });
      const grid = await trainModelsOverSeeds(request, [unstableBase, unstableDp], pairs, {
        threads: 2,
        cacheDirectory,
      });
      expect(grid.map((entry) => [entry.splitSeed, entry.modelSeed])).toEqual([
        ['5', 'm'],
        ['5', 'm/1'],
        ['5/1', 'm'],
      ]);
      for (const entry of grid) {
        expect(entry.models.map((model) => [model.name, model.fromCache])).toEqual([
          ['unstable-base', false],
          ['unstable-dp', false],
        ]);
        // One at a time through trainModels: the same cache entries, now read back.
        const single = await trainModels(
          { ...request, split: { ...request.split, seed: entry.splitSeed } },
          [unstableBase, unstableDp],
          { seed: entry.modelSeed, threads: 1, cacheDirectory },
        );
        expect(single.map((model) => model.fromCache)).toEqual([true, true]);
        expect(single.map((model) => model.directory)).toEqual(entry.models.map((model) => model.directory));
        expect(Array.from(single[0].pool.logit!)).toEqual(Array.from(entry.models[0].pool.logit!));
      }
      // Each axis changes what it should: the model seed the network, the split seed the pool's rows.
      const logits = (k: number) => Array.from(grid[k].models[0].pool.logit!);
      const rows = (k: number) => Array.from(grid[k].models[0].pool.id!);
      expect(rows(1)).toEqual(rows(0));
      expect(logits(1)).not.toEqual(logits(0));
      expect(rows(2)).not.toEqual(rows(0));
    },
  );

  it('trains only the pairs a rerun adds (K = 2, then K = 3 reuses the first five entries)', async () => {
    const cacheDirectory = join(root, 'cache-b');
    await trainModelsOverSeeds(
      request,
      [unstableBase],
      seedAxes({ splitSeed: 5, modelSeed: 'm' }, { modelSeeds: 2, splitSeeds: 2 }),
      {
        threads: 1,
        cacheDirectory,
      },
    );
    const trained: string[] = [];
    const grid = await trainModelsOverSeeds(
      request,
      [unstableBase],
      seedAxes({ splitSeed: 5, modelSeed: 'm' }, { modelSeeds: 3, splitSeeds: 3 }),
      {
        threads: 1,
        cacheDirectory,
        onModelReady: (model) => {
          if (!model.fromCache) trained.push(model.directory);
        },
      },
    );
    expect(grid.map((entry) => entry.models[0].fromCache)).toEqual([true, true, false, true, false]);
    expect(trained).toHaveLength(2);
  });
});

describe('trainFromConfigOverSeeds(config, catalogue, file, counts, options)', () => {
  const config = {
    dataset: 'adult',
    split: { scheme: 'paper-a' as const, seed: '5', protectedAttribute: 'sex' },
    models: ['unstable-base'],
    seed: 'm',
    threads: 1,
  };
  const options = { ...location, cacheDirectory: join(root, 'cache-b') };

  it(
    "lays the config's seeds out as the base pair of seedAxes and reads what trainModelsOverSeeds " + 'cached',
    async () => {
      const grid = await trainFromConfigOverSeeds(
        config,
        [unstableBase, unstableDp],
        'x.yaml',
        { modelSeeds: 3, splitSeeds: 3 },
        options,
      );
      expect(grid.map((entry) => [entry.splitSeed, entry.modelSeed])).toEqual(
        seedAxes({ splitSeed: 5, modelSeed: 'm' }, { modelSeeds: 3, splitSeeds: 3 }).map((pair) => [
          pair.splitSeed,
          pair.modelSeed,
        ]),
      );
      expect(grid.every((entry) => entry.models.length === 1 && entry.models[0].fromCache)).toBe(true);
    },
  );

  it('throws InputError naming the file and models[i] for an unknown model name', async () => {
    const bad = trainFromConfigOverSeeds(
      { ...config, models: ['nope'] },
      [unstableBase],
      'x.yaml',
      { modelSeeds: 1, splitSeeds: 1 },
      options,
    );
    await expect(bad).rejects.toThrow(InputError);
    await expect(bad).rejects.toThrow(/x\.yaml: models\[0\]/);
  });
});

describe('trainConfigsOverSeeds(configs, counts, options)', () => {
  const config = {
    dataset: 'adult',
    split: { scheme: 'paper-a' as const, seed: '7', protectedAttribute: 'sex' },
    models: ['unstable-base', 'unstable-dp'],
    seed: 'q',
    threads: 2,
  };
  const presets = [unstableBase, unstableDp];

  it(
    'gives each config the models trainFromConfigOverSeeds gives it alone (same pools, same cards but the ' + 'time)',
    async () => {
      const together = join(root, 'cache-together');
      const alone = join(root, 'cache-alone');
      const other = { ...config, seed: 'r', split: { ...config.split, seed: '8' } };
      const counts = { modelSeeds: 2, splitSeeds: 2 };
      const outcomes = await trainConfigsOverSeeds(
        [
          { config, catalogue: presets, file: 'a.yaml' },
          { config: other, catalogue: presets, file: 'b.yaml' },
        ],
        counts,
        { ...location, cacheDirectory: together },
      );
      for (const [k, entry] of [config, other].entries()) {
        const outcome = outcomes[k];
        if (!outcome.trained) throw outcome.error;
        const single = await trainFromConfigOverSeeds(entry, presets, 'x.yaml', counts, {
          ...location,
          cacheDirectory: alone,
        });
        expect(outcome.pairs.map((pair) => [pair.splitSeed, pair.modelSeed])).toEqual(
          single.map((pair) => [pair.splitSeed, pair.modelSeed]),
        );
        for (const [p, pair] of outcome.pairs.entries()) {
          for (const [m, model] of pair.models.entries()) {
            const twin = single[p].models[m];
            expect(model.fromCache).toBe(false);
            expect(twin.fromCache).toBe(false);
            expect(Array.from(model.pool.decision)).toEqual(Array.from(twin.pool.decision));
            expect(Array.from(model.pool.score ?? [])).toEqual(Array.from(twin.pool.score ?? []));
            expect({ ...model.card, trainingSeconds: 0 }).toEqual({ ...twin.card, trainingSeconds: 0 });
          }
        }
      }
    },
  );

  it("gives a config with an unknown model its InputError and still trains the others'", async () => {
    const outcomes = await trainConfigsOverSeeds(
      [
        { config: { ...config, models: ['nope'] }, catalogue: presets, file: 'bad.yaml' },
        { config: { ...config, models: ['unstable-base'] }, catalogue: presets, file: 'good.yaml' },
      ],
      { modelSeeds: 1, splitSeeds: 1 },
      { ...location, cacheDirectory: join(root, 'cache-mixed') },
    );
    const [bad, good] = outcomes;
    expect(bad.trained).toBe(false);
    if (!bad.trained) {
      expect(bad.error).toBeInstanceOf(InputError);
      expect(bad.error.message).toMatch(/bad\.yaml: models\[0\]/);
    }
    expect(good.trained && good.pairs.length === 1 && good.pairs[0].models[0].name === 'unstable-base').toBe(true);
  });
});

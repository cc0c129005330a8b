import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { paperAModelPreset } from '../../papers/paper-a/models.js';
import { readPoolFile } from '../../src/audit/pool-io.js';
import type { ModelPreset } from '../../src/models/model-preset.js';
import { syntheticTabularData } from '../../src/models/synthetic-tabular.js';
import { presetsOfConfig, trainModelsOnSplit } from '../../src/models/train-models.js';
import { createRandom } from '../../src/util/random.js';

const cacheDirectory = mkdtempSync(join(tmpdir(), 'fairaudit-models-'));
afterAll(() => rmSync(cacheDirectory, { recursive: true, force: true }));

const shape = { numericColumns: 4, categoricalLevels: [3, 5], groupEffect: 1 };
const train = syntheticTabularData({ ...shape, rows: 1500 }, createRandom('train'));
const heldOut = syntheticTabularData({ ...shape, rows: 600 }, createRandom('held-out'));
const split = {
  dataset: 'synthetic',
  protectedAttribute: 'group',
  train,
  heldOut,
  auditRows: Int32Array.from([0, 5, 9]),
};
const robustBase = paperAModelPreset('robust-base');
const quickRobustBase: ModelPreset =
  robustBase.type === 'mlp'
    ? { ...robustBase, spec: { ...robustBase.spec, mlp: { ...robustBase.spec.mlp, epochs: 2 } } }
    : robustBase;
const unstableDp = paperAModelPreset('unstable-dp');

describe('trainModelsOnSplit(prepared, presets, options)', () => {
  it(
    'trains, writes pool.arrow, audit-pool.arrow and card.json, and reads them back from the cache the second ' +
      'time',
    async () => {
      const options = { seed: 7, threads: 1, cacheDirectory };
      const first = await trainModelsOnSplit(
        { split, fingerprint: { synthetic: 1 } },
        [quickRobustBase, unstableDp],
        options,
      );
      expect(first.map((model) => [model.name, model.fromCache])).toEqual([
        ['robust-base', false],
        ['unstable-dp', false],
      ]);
      for (const model of first) {
        expect(readdirSync(model.directory).sort()).toEqual(['audit-pool.arrow', 'card.json', 'pool.arrow']);
        const pool = readPoolFile(join(model.directory, 'pool.arrow'), { require: ['score', 'logit'] });
        expect(pool.size).toBe(600);
        expect(Array.from(pool.id!.subarray(0, 3))).toEqual([0, 1, 2]);
        expect(model.auditPool!.size).toBe(3);
        expect(model.card.poolRows).toBe(600);
        expect(model.card.accuracy).toBeGreaterThan(0.6);
      }
      const base = first[0].pool;
      for (let i = 0; i < base.size; i++) {
        expect(base.decision[i]).toBe(base.score![i] >= 0.5 ? 1 : 0);
        expect(base.score![i]).toBeCloseTo(1 / (1 + Math.exp(-base.logit![i])), 12);
      }
      const reduced = first[1].pool;
      for (let i = 0; i < reduced.size; i++) {
        const score = reduced.score![i];
        if (score === 0) expect(reduced.decision[i]).toBe(0);
        if (score === 1) expect(reduced.decision[i]).toBe(1);
        const clamped = Math.min(1 - 1e-6, Math.max(1e-6, score));
        expect(reduced.logit![i]).toBeCloseTo(Math.log(clamped / (1 - clamped)), 9);
      }
      const weights = first[1].card.details?.mixtureWeights as number[];
      expect(weights.reduce((sum, w) => sum + w, 0)).toBeCloseTo(1, 12);
      const second = await trainModelsOnSplit(
        { split, fingerprint: { synthetic: 1 } },
        [unstableDp, quickRobustBase],
        options,
      );
      expect(second.map((model) => [model.name, model.fromCache])).toEqual([
        ['unstable-dp', true],
        ['robust-base', true],
      ]);
      expect(Array.from(second[1].pool.logit!)).toEqual(Array.from(first[0].pool.logit!));
      expect(second[0].card.statisticalParityGap).toBe(first[1].card.statisticalParityGap);
    },
  );

  it('keys the cache by the split fingerprint and the seed', async () => {
    const options = { seed: 7, threads: 1, cacheDirectory };
    const [otherSplit] = await trainModelsOnSplit({ split, fingerprint: { synthetic: 2 } }, [unstableDp], options);
    const [otherSeed] = await trainModelsOnSplit({ split, fingerprint: { synthetic: 1 } }, [unstableDp], {
      ...options,
      seed: 8,
    });
    expect(otherSplit.fromCache).toBe(false);
    expect(otherSeed.fromCache).toBe(false);
    expect(otherSeed.directory).not.toBe(otherSplit.directory);
  });

  it('presetsOfConfig(config, catalogue, file) throws InputError naming the file and an unknown model', () => {
    const config = {
      dataset: 'adult',
      split: { scheme: 'paper-a' as const, seed: '1' },
      models: ['robust-base', 'random-forest'],
      seed: '1',
      threads: 1,
    };
    expect(() => presetsOfConfig(config, [robustBase, unstableDp], 'models.yaml')).toThrow(
      /models\.yaml: models\[1\]: expected one of robust-base, unstable-dp, found "random-forest"/,
    );
  });
});

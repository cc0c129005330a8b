import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readPoolFile } from '../../src/audit/pool-io.js';
import { PAPER_A_MODEL_SPECS } from '../../src/models/paper-a-models.js';
import { syntheticTabularData } from '../../src/models/synthetic-tabular.js';
import { trainModelsOnSplit } from '../../src/models/train-models.js';
import { createRandom } from '../../src/util/random.js';

const cacheDirectory = mkdtempSync(join(tmpdir(), 'fairaudit-models-'));
afterAll(() => rmSync(cacheDirectory, { recursive: true, force: true }));

const shape = { numericColumns: 4, categoricalLevels: [3, 5], groupEffect: 1 };
const train = syntheticTabularData({ ...shape, rows: 1500 }, createRandom('train'));
const heldOut = syntheticTabularData({ ...shape, rows: 600 }, createRandom('held-out'));
const split = { dataset: 'synthetic', protectedAttribute: 'group', train, heldOut, auditRows: Int32Array.from([0, 5, 9]) };
const quick = {
  'robust-base': { ...PAPER_A_MODEL_SPECS['robust-base'], mlp: { ...PAPER_A_MODEL_SPECS['robust-base'].mlp, epochs: 2 } },
  'unstable-dp': PAPER_A_MODEL_SPECS['unstable-dp'],
};

describe('trainModelsOnSplit(prepared, models, options)', () => {
  it('trains, writes pool.arrow, audit-pool.arrow and card.json, and reads them back from the cache the second time', async () => {
    const options = { seed: 7, threads: 1, cacheDirectory, specs: quick };
    const first = await trainModelsOnSplit({ split, fingerprint: { synthetic: 1 } }, ['robust-base', 'unstable-dp'], options);
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
    const second = await trainModelsOnSplit({ split, fingerprint: { synthetic: 1 } }, ['unstable-dp', 'robust-base'], options);
    expect(second.map((model) => [model.name, model.fromCache])).toEqual([
      ['unstable-dp', true],
      ['robust-base', true],
    ]);
    expect(Array.from(second[1].pool.logit!)).toEqual(Array.from(first[0].pool.logit!));
    expect(second[0].card.statisticalParityGap).toBe(first[1].card.statisticalParityGap);
  });

  it('keys the cache by the split fingerprint and the seed', async () => {
    const options = { seed: 7, threads: 1, cacheDirectory, specs: quick };
    const [otherSplit] = await trainModelsOnSplit({ split, fingerprint: { synthetic: 2 } }, ['unstable-dp'], options);
    const [otherSeed] = await trainModelsOnSplit({ split, fingerprint: { synthetic: 1 } }, ['unstable-dp'], {
      ...options,
      seed: 8,
    });
    expect(otherSplit.fromCache).toBe(false);
    expect(otherSeed.fromCache).toBe(false);
    expect(otherSeed.directory).not.toBe(otherSplit.directory);
  });

  it('throws InputError naming an unknown model', async () => {
    await expect(
      trainModelsOnSplit({ split, fingerprint: {} }, ['robust-base', 'random-forest'], { seed: 1, cacheDirectory }),
    ).rejects.toThrow(/models\[1\]: expected one of robust-base, .*boosted-trees, found "random-forest"/);
  });
});

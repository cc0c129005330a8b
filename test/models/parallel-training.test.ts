import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { paperAModelPreset } from '../../papers/paper-a/models.js';
import type { ModelPreset } from '../../src/models/model-preset.js';
import { syntheticTabularData } from '../../src/models/synthetic-tabular.js';
import { trainModelsOnSplit } from '../../src/models/train-models.js';
import { foldFitPool } from '../../src/models/trees/fold-fit-pool.js';
import { GRADIENT_BOOSTING_DEFAULTS } from '../../src/models/trees/gradient-boosting.js';
import { randomSearch } from '../../src/models/trees/random-search.js';
import { createRandom } from '../../src/util/random.js';

// Worker threads run the compiled dist/ (the vitest global setup, test/setup/build.ts,
// builds it when it is missing or stale).

const cacheDirectory = mkdtempSync(join(tmpdir(), 'fairaudit-models-parallel-'));
afterAll(() => rmSync(cacheDirectory, { recursive: true, force: true }));

describe('model training on worker threads', () => {
  it('trainModelsOnSplit(..., {threads: 2}) gives the same pools as threads: 1', async () => {
    const shape = { numericColumns: 3, categoricalLevels: [4], groupEffect: 1 };
    const split = {
      dataset: 'synthetic',
      protectedAttribute: 'group',
      train: syntheticTabularData({ ...shape, rows: 800 }, createRandom('train')),
      heldOut: syntheticTabularData({ ...shape, rows: 300 }, createRandom('held-out')),
      auditRows: null,
    };
    const robust = paperAModelPreset('robust-base');
    const quickRobust: ModelPreset =
      robust.type === 'mlp' ? { ...robust, spec: { ...robust.spec, mlp: { ...robust.spec.mlp, epochs: 2 } } } : robust;
    const presets = [quickRobust, paperAModelPreset('unstable-base'), paperAModelPreset('unstable-dp')];
    const one = await trainModelsOnSplit({ split, fingerprint: 'one' }, presets, {
      seed: 3,
      threads: 1,
      cacheDirectory,
    });
    const two = await trainModelsOnSplit({ split, fingerprint: 'two' }, presets, {
      seed: 3,
      threads: 2,
      cacheDirectory,
    });
    for (let k = 0; k < presets.length; k++) {
      expect(two[k].fromCache).toBe(false);
      expect(Array.from(two[k].pool.score!)).toEqual(Array.from(one[k].pool.score!));
      expect(Array.from(two[k].pool.decision)).toEqual(Array.from(one[k].pool.decision));
    }
  });

  it('randomSearch with a foldFitPool runner equals the single-thread search', async () => {
    const random = createRandom('pool-search');
    const rows = 500;
    const features = Float64Array.from({ length: rows * 3 }, () => random());
    const label = Uint8Array.from({ length: rows }, (_, i) => (features[3 * i] + 0.3 * random() > 0.6 ? 1 : 0));
    const all = Int32Array.from({ length: rows }, (_, i) => i);
    const settings = {
      draws: 3,
      folds: 3,
      space: { learningRate: [0.05, 0.5], maxLeafNodes: [4, 8], maxIterations: [5, 40] } as const,
      base: GRADIENT_BOOSTING_DEFAULTS,
    };
    const data = { features, columns: 3 };
    const single = await randomSearch(data, label, all, settings, 'seed');
    const pooled = await randomSearch(
      data,
      label,
      all,
      settings,
      'seed',
      undefined,
      foldFitPool(data, label, settings.base, 'seed', 2),
    );
    expect(pooled.candidates).toEqual(single.candidates);
    expect(pooled.model.trees.length).toBe(single.model.trees.length);
  });
});

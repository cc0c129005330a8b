import { describe, expect, it } from 'vitest';
import { PAPER_B_SEARCH_SPACE } from '../../../papers/paper-b/models.js';
import { GRADIENT_BOOSTING_DEFAULTS } from '../../../src/models/trees/gradient-boosting.js';
import { drawCandidates, randomSearch, stratifiedFolds } from '../../../src/models/trees/random-search.js';
import { createRandom } from '../../../src/util/random.js';

describe('drawCandidates(random, draws, space)', () => {
  it(
    'draws learning rates in [0.01, 1], leaves in [20, 50) and iterations in [10, 1000), all integers where ' + 'due',
    () => {
      const candidates = drawCandidates(createRandom('draws'), 500, PAPER_B_SEARCH_SPACE);
      let belowTenth = 0;
      for (const c of candidates) {
        expect(c.learningRate).toBeGreaterThanOrEqual(0.01);
        expect(c.learningRate).toBeLessThanOrEqual(1);
        expect(Number.isInteger(c.maxLeafNodes) && c.maxLeafNodes >= 20 && c.maxLeafNodes < 50).toBe(true);
        expect(Number.isInteger(c.maxIterations) && c.maxIterations >= 10 && c.maxIterations < 1000).toBe(true);
        if (c.learningRate < 0.1) belowTenth++;
      }
      // Log-uniform: P(lr < 0.1) = 1/2; binomial(500, 1/2) within 5 sd.
      expect(Math.abs(belowTenth - 250)).toBeLessThan(5 * Math.sqrt(125));
    },
  );
});

describe('stratifiedFolds(label, rows, folds, random)', () => {
  it('partitions the rows into folds of near-equal size and label balance', () => {
    const label = Uint8Array.from({ length: 103 }, (_, i) => (i % 4 === 0 ? 1 : 0));
    const rows = Int32Array.from({ length: 103 }, (_, i) => i);
    const folds = stratifiedFolds(label, rows, 5, createRandom('folds'));
    const seen = new Set<number>();
    for (const fold of folds) {
      expect(fold.length === 20 || fold.length === 21).toBe(true);
      const positives = Array.from(fold).filter((row) => label[row] === 1).length;
      expect(positives === 5 || positives === 6).toBe(true);
      for (const row of fold) seen.add(row);
    }
    expect(seen.size).toBe(103);
  });
});

describe('randomSearch(data, label, rows, settings, seed)', () => {
  it('scores every draw by cross-validation, picks the most accurate and refits it on all rows', async () => {
    const random = createRandom('search-data');
    const rows = 600;
    const features = Float64Array.from({ length: rows * 2 }, () => random());
    const label = Uint8Array.from({ length: rows }, (_, i) => (features[2 * i] > 0.4 ? 1 : 0));
    const all = Int32Array.from({ length: rows }, (_, i) => i);
    const settings = {
      draws: 3,
      folds: 3,
      space: { learningRate: [0.05, 0.5], maxLeafNodes: [4, 8], maxIterations: [5, 30] } as const,
      base: GRADIENT_BOOSTING_DEFAULTS,
    };
    const progress: number[] = [];
    const result = await randomSearch({ features, columns: 2 }, label, all, settings, 'seed', (done) =>
      progress.push(done),
    );
    expect(result.candidates).toHaveLength(3);
    expect(progress).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    for (const c of result.candidates) expect(c.meanAccuracy).toBeLessThanOrEqual(result.best.meanAccuracy);
    expect(result.best.meanAccuracy).toBeGreaterThan(0.95);
    expect(result.model.trees.length).toBeLessThanOrEqual(result.best.hyperparameters.maxIterations);
    const again = await randomSearch({ features, columns: 2 }, label, all, settings, 'seed');
    expect(again.best).toEqual(result.best);
  });
});

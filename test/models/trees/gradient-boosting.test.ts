import { describe, expect, it } from 'vitest';
import {
  boostedLogits,
  fitGradientBoosting,
  GRADIENT_BOOSTING_DEFAULTS,
} from '../../../src/models/trees/gradient-boosting.js';
import { createTreeWorkspace, growTree, rowMajorBins } from '../../../src/models/trees/histogram-tree.js';
import { createRandom } from '../../../src/util/random.js';

const allRows = (n: number) => Int32Array.from({ length: n }, (_, i) => i);

function uniformFeatures(rows: number, columns: number, seed: string): Float64Array {
  const random = createRandom(seed);
  return Float64Array.from({ length: rows * columns }, () => random());
}

describe('growTree(binned, gradient, hessian, settings, workspace, rowValue)', () => {
  it('splits where the gradients change sign and sets leaf values to -lr G / (H + l2)', () => {
    // Rows 0..5 in bins 0..5 of one feature; gradient -1 on bins 0..2 and +1 on 3..5, hessian 1.
    const binned = {
      rows: 6,
      columns: 1,
      bins: Uint8Array.from([0, 1, 2, 3, 4, 5]),
      rowBins: Uint8Array.from([0, 1, 2, 3, 4, 5]),
      binCount: Int32Array.from([6]),
    };
    const gradient = Float64Array.from([-1, -1, -1, 1, 1, 1]);
    const hessian = new Float64Array(6).fill(1);
    const rowValue = new Float64Array(6);
    const settings = { maxLeafNodes: 2, minSamplesLeaf: 1, l2Regularization: 1, learningRate: 0.5 };
    const tree = growTree(binned, gradient, hessian, settings, createTreeWorkspace(binned), rowValue);
    expect(tree.feature[0]).toBe(0);
    expect(tree.splitBin[0]).toBe(2);
    // Left leaf: G = -3, H = 3: -0.5 * -3 / (3 + 1) = 0.375; right leaf -0.375.
    expect(Array.from(rowValue)).toEqual([0.375, 0.375, 0.375, -0.375, -0.375, -0.375]);
  });

  it('rowMajorBins(bins, rows, columns) lays column-major bins out row by row (the layout histograms read)', () => {
    // 3 rows x 2 features, column-major: feature 0 = [1, 2, 3], feature 1 = [7, 8, 9].
    expect(Array.from(rowMajorBins(Uint8Array.from([1, 2, 3, 7, 8, 9]), 3, 2))).toEqual([1, 7, 2, 8, 3, 9]);
  });

  it('respects minSamplesLeaf and maxLeafNodes', () => {
    const rows = 400;
    const random = createRandom('leaves');
    const bins = Uint8Array.from({ length: rows * 2 }, () => Math.floor(random() * 50));
    const binned = {
      rows,
      columns: 2,
      bins,
      rowBins: rowMajorBins(bins, rows, 2),
      binCount: Int32Array.from([50, 50]),
    };
    const gradient = Float64Array.from({ length: rows }, () => random() - 0.5);
    const hessian = new Float64Array(rows).fill(0.25);
    const rowValue = new Float64Array(rows);
    const settings = { maxLeafNodes: 7, minSamplesLeaf: 30, l2Regularization: 0, learningRate: 1 };
    const tree = growTree(binned, gradient, hessian, settings, createTreeWorkspace(binned), rowValue);
    const leafCounts = new Map<number, number>();
    for (const v of rowValue) leafCounts.set(v, (leafCounts.get(v) ?? 0) + 1);
    expect(tree.left.filter((child) => child < 0).length).toBeLessThanOrEqual(7);
    for (const count of leafCounts.values()) expect(count).toBeGreaterThanOrEqual(30);
  });
});

describe('fitGradientBoosting(data, label, rows, settings, random)', () => {
  it('fits a known function: label = [x0 + x1 > 1] on 2,000 rows, accuracy above 0.97 on fresh rows', () => {
    const make = (seed: string) => {
      const features = uniformFeatures(2000, 3, seed);
      const label = Uint8Array.from({ length: 2000 }, (_, i) => (features[i * 3] + features[i * 3 + 1] > 1 ? 1 : 0));
      return { features, columns: 3, label };
    };
    const train = make('train');
    const test = make('test');
    const model = fitGradientBoosting(
      train,
      train.label,
      allRows(2000),
      { ...GRADIENT_BOOSTING_DEFAULTS, maxIterations: 200, learningRate: 0.3 },
      createRandom('fit'),
    );
    const logits = boostedLogits(model, test, allRows(2000));
    let correct = 0;
    for (let i = 0; i < 2000; i++) if ((logits[i] >= 0 ? 1 : 0) === test.label[i]) correct++;
    expect(correct / 2000).toBeGreaterThan(0.97);
  });

  it('starts from the log-odds of the training positive rate', () => {
    const features = uniformFeatures(100, 1, 'base');
    const label = Uint8Array.from({ length: 100 }, (_, i) => (i < 25 ? 1 : 0));
    const model = fitGradientBoosting(
      { features, columns: 1 },
      label,
      allRows(100),
      {
        ...GRADIENT_BOOSTING_DEFAULTS,
        maxIterations: 0,
      },
      createRandom('x'),
    );
    expect(model.baseline).toBeCloseTo(Math.log(0.25 / 0.75), 12);
  });

  it('stops early on pure-noise labels once 10 iterations bring no validation improvement', () => {
    const rows = 12_000;
    const features = uniformFeatures(rows, 4, 'noise');
    const random = createRandom('noise-labels');
    const label = Uint8Array.from({ length: rows }, () => (random() < 0.5 ? 1 : 0));
    const model = fitGradientBoosting(
      { features, columns: 4 },
      label,
      allRows(rows),
      {
        ...GRADIENT_BOOSTING_DEFAULTS,
        maxIterations: 500,
        learningRate: 0.3,
      },
      createRandom('fit'),
    );
    // 'auto' turns early stopping on above 10,000 rows.
    expect(model.trees.length).toBeLessThan(60);
    const losses = model.validationLosses;
    expect(losses.length).toBe(model.trees.length + 1);
    const reference = losses[losses.length - 11];
    for (const loss of losses.slice(-10)) expect(loss).toBeGreaterThanOrEqual(reference - 1e-7);
  });

  it('is deterministic from its random source', () => {
    const features = uniformFeatures(11_000, 2, 'det');
    const label = Uint8Array.from({ length: 11_000 }, (_, i) => (features[2 * i] > 0.5 ? 1 : 0));
    const settings = { ...GRADIENT_BOOSTING_DEFAULTS, maxIterations: 20 };
    const first = fitGradientBoosting({ features, columns: 2 }, label, allRows(11_000), settings, createRandom('s'));
    const second = fitGradientBoosting({ features, columns: 2 }, label, allRows(11_000), settings, createRandom('s'));
    expect(second.validationLosses).toEqual(first.validationLosses);
    expect(Array.from(boostedLogits(second, { features, columns: 2 }, allRows(50)))).toEqual(
      Array.from(boostedLogits(first, { features, columns: 2 }, allRows(50))),
    );
  });
});

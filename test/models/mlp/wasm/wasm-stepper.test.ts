import { beforeAll, describe, expect, it } from 'vitest';
import { toSparseRows } from '../../../../src/models/mlp/sparse-rows.js';
import { trainMlp } from '../../../../src/models/mlp/train-mlp.js';
import { mlpKernelModule, prepareMlpKernels } from '../../../../src/models/mlp/wasm/mlp-kernels.js';
import { createRandom, standardNormal } from '../../../../src/util/random.js';

/** Rows like one-hot encoded tabular data: a few numeric columns (some exactly 0), one level per categorical column. */
function tabular(seed: string, rows: number, numeric: number, levels: readonly number[]) {
  const random = createRandom(seed);
  const columns = numeric + levels.reduce((sum, count) => sum + count, 0);
  const features = new Float64Array(rows * columns);
  const label = new Uint8Array(rows);
  const weight = new Float64Array(rows);
  for (let r = 0; r < rows; r++) {
    let score = 0;
    for (let c = 0; c < numeric; c++) {
      const x = random() < 0.15 ? 0 : standardNormal(random);
      features[r * columns + c] = x;
      score += c % 2 === 0 ? x : -0.5 * x;
    }
    let offset = numeric;
    for (const count of levels) {
      const level = Math.floor(random() * count);
      features[r * columns + offset + level] = 1;
      score += level % 3 === 0 ? 0.7 : -0.3;
      offset += count;
    }
    label[r] = random() < 1 / (1 + Math.exp(-score)) ? 1 : 0;
    weight[r] = 0.2 + 1.6 * random();
  }
  return { input: toSparseRows(features, rows, columns), label, weight };
}

describe('trainMlp(...) on the WebAssembly kernels against the JavaScript kernel', () => {
  beforeAll(async () => {
    expect(await prepareMlpKernels()).toBe(true);
    expect(mlpKernelModule()).not.toBeNull();
  });

  // Widths that exercise every path of the kernels: blocks of eight units, pairs, an odd
  // last unit (forward and gradient), odd input widths (the last unit of backwardDenseDeltas),
  // a network without hidden layers, with and without dropout and sample weights, and a
  // last minibatch shorter than the others (203 rows, batch 32).
  const cases = [
    { hidden: [64, 32], dropout: 0.1, weighted: false, learningRate: 1e-3 },
    { hidden: [16], dropout: 0, weighted: true, learningRate: 1e-2 },
    { hidden: [13, 7, 3], dropout: 0.25, weighted: true, learningRate: 5e-3 },
    { hidden: [9], dropout: 0.5, weighted: false, learningRate: 2e-2 },
    { hidden: [], dropout: 0, weighted: true, learningRate: 1e-2 },
  ];
  for (const { hidden, dropout, weighted, learningRate } of cases) {
    it(
      `gives bit-identical weights, epoch losses and Random draws for hidden [${hidden.join(', ')}], ` +
        `dropout ${dropout}${weighted ? ', sample weights' : ''}`,
      () => {
        const { input, label, weight } = tabular(`wasm-${hidden.join('x')}`, 203, 5, [4, 7, 2]);
        const settings = { hiddenLayers: hidden, dropoutRate: dropout, learningRate, epochs: 4, batchSize: 32 };
        const randomJs = createRandom('same-seed');
        const randomWasm = createRandom('same-seed');
        const js = trainMlp(input, label, weighted ? weight : null, settings, randomJs, 'javascript');
        const wasm = trainMlp(input, label, weighted ? weight : null, settings, randomWasm, 'auto');
        expect(Array.from(wasm.network.parameters)).toEqual(Array.from(js.network.parameters));
        expect(Array.from(wasm.epochLosses)).toEqual(Array.from(js.epochLosses));
        // The same number of draws: the next draw of both sources agrees.
        expect(randomWasm()).toBe(randomJs());
        // And training did something: the loss went down.
        expect(js.epochLosses[3]).toBeLessThan(js.epochLosses[0]);
      },
    );
  }
});

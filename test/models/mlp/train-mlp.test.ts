import { describe, expect, it } from 'vitest';
import { toSparseRows } from '../../../src/models/mlp/sparse-rows.js';
import { mlpLogits, trainMlp } from '../../../src/models/mlp/train-mlp.js';
import { createRandom, standardNormal } from '../../../src/util/random.js';

describe('trainMlp(input, label, weight, settings, random) and mlpLogits(network, input)', () => {
  it('are deterministic from the seed, and differ for another seed', () => {
    const random = createRandom('determinism');
    const features = Float64Array.from({ length: 300 * 6 }, () => (random() < 0.3 ? 0 : standardNormal(random)));
    const input = toSparseRows(features, 300, 6);
    const label = Uint8Array.from({ length: 300 }, (_, r) => (features[r * 6] + 0.5 * random() > 0 ? 1 : 0));
    const settings = { hiddenLayers: [8, 4], dropoutRate: 0.1, learningRate: 1e-2, epochs: 2, batchSize: 16 };
    const first = mlpLogits(trainMlp(input, label, null, settings, createRandom('a')).network, input);
    const again = mlpLogits(trainMlp(input, label, null, settings, createRandom('a')).network, input);
    const other = mlpLogits(trainMlp(input, label, null, settings, createRandom('b')).network, input);
    expect(Array.from(again)).toEqual(Array.from(first));
    expect(Array.from(other)).not.toEqual(Array.from(first));
  });

  it('trainMlp(..., onEpoch) calls onEpoch(1..epochs) in order and trains the same network as without it', () => {
    const random = createRandom('epochs');
    const features = Float64Array.from({ length: 120 * 4 }, () => standardNormal(random));
    const input = toSparseRows(features, 120, 4);
    const label = Uint8Array.from({ length: 120 }, (_, r) => (features[r * 4] > 0 ? 1 : 0));
    const settings = { hiddenLayers: [5], dropoutRate: 0.1, learningRate: 1e-2, epochs: 3, batchSize: 16 };
    const epochs: number[] = [];
    const watched = trainMlp(input, label, null, settings, createRandom('e'), 'auto', (epoch) => epochs.push(epoch));
    const plain = trainMlp(input, label, null, settings, createRandom('e'));
    expect(epochs).toEqual([1, 2, 3]);
    expect(Array.from(mlpLogits(watched.network, input))).toEqual(Array.from(mlpLogits(plain.network, input)));
    expect(Array.from(watched.epochLosses)).toEqual(Array.from(plain.epochLosses));
  });

  it('handle no rows (no steps, empty logits) and a single row', () => {
    const settings = { hiddenLayers: [3], dropoutRate: 0, learningRate: 1e-2, epochs: 2, batchSize: 4 };
    const none = toSparseRows(new Float64Array(0), 0, 2);
    const trained = trainMlp(none, new Uint8Array(0), null, settings, createRandom('none'));
    expect(Array.from(trained.epochLosses)).toEqual([0, 0]);
    expect(mlpLogits(trained.network, none).length).toBe(0);
    const one = toSparseRows(Float64Array.from([1, -1]), 1, 2);
    const single = trainMlp(one, Uint8Array.from([1]), null, { ...settings, epochs: 50 }, createRandom('one'));
    expect(single.epochLosses[49]).toBeLessThan(single.epochLosses[0]);
    expect(mlpLogits(single.network, one)[0]).toBeGreaterThan(0);
  });

  it('lowers the weighted loss where the sample weights are large', () => {
    // Two identical inputs with opposite labels: the heavier row wins the prediction.
    const input = toSparseRows(Float64Array.from([1, 1, 1, 1]), 2, 2);
    const settings = { hiddenLayers: [4], dropoutRate: 0, learningRate: 5e-2, epochs: 200, batchSize: 2 };
    const favourOne = trainMlp(input, Uint8Array.from([1, 0]), Float64Array.from([9, 1]), settings, createRandom('w'));
    const favourZero = trainMlp(input, Uint8Array.from([1, 0]), Float64Array.from([1, 9]), settings, createRandom('w'));
    // The weighted optimum is p = 0.9 (logit log 9 = 2.197) and p = 0.1.
    expect(mlpLogits(favourOne.network, input)[0]).toBeCloseTo(Math.log(9), 1);
    expect(mlpLogits(favourZero.network, input)[0]).toBeCloseTo(-Math.log(9), 1);
  });
});

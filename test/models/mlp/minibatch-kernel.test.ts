import { describe, expect, it } from 'vitest';
import { createMinibatchWorkspace, minibatchLossAndGradient } from '../../../src/models/mlp/minibatch-kernel.js';
import { createMlpNetwork } from '../../../src/models/mlp/network.js';
import { toSparseRows } from '../../../src/models/mlp/sparse-rows.js';
import { createRandom, standardNormal } from '../../../src/util/random.js';

function smallProblem(seed: string, rows: number, columns: number) {
  const random = createRandom(seed);
  const features = new Float64Array(rows * columns);
  // About a third of the inputs are exactly zero, as after one-hot encoding.
  for (let k = 0; k < features.length; k++) features[k] = random() < 0.33 ? 0 : standardNormal(random);
  const label = new Uint8Array(rows);
  const weight = new Float64Array(rows);
  for (let r = 0; r < rows; r++) {
    label[r] = random() < 0.5 ? 1 : 0;
    weight[r] = 0.2 + 2 * random();
  }
  const order = new Int32Array(rows);
  for (let r = 0; r < rows; r++) order[r] = r;
  return { input: toSparseRows(features, rows, columns), label, weight, order };
}

describe('minibatchLossAndGradient(pass, label, weight, gradient)', () => {
  it('matches central finite differences of the weighted cross-entropy for every parameter', () => {
    for (const hidden of [[4], [6, 3]]) {
      const rows = 7;
      const { input, label, weight, order } = smallProblem(`gradient-${hidden.join('x')}`, rows, 5);
      const network = createMlpNetwork(5, hidden, createRandom('init'));
      const workspace = createMinibatchWorkspace(network, rows);
      const gradient = new Float64Array(network.parameters.length);
      const scratch = new Float64Array(network.parameters.length);
      const loss = () =>
        minibatchLossAndGradient(
          { network, input, order, start: 0, end: rows, dropoutRate: 0, random: null, workspace },
          label,
          weight,
          scratch,
        );
      minibatchLossAndGradient(
        { network, input, order, start: 0, end: rows, dropoutRate: 0, random: null, workspace },
        label,
        weight,
        gradient,
      );
      const step = 1e-6;
      for (let k = 0; k < network.parameters.length; k++) {
        const held = network.parameters[k];
        network.parameters[k] = held + step;
        const up = loss();
        network.parameters[k] = held - step;
        const down = loss();
        network.parameters[k] = held;
        const numeric = (up - down) / (2 * step);
        expect(Math.abs(gradient[k] - numeric)).toBeLessThan(1e-6 * Math.max(1, Math.abs(numeric)));
      }
    }
  });

  it('matches finite differences with dropout too, when every evaluation draws the same mask', () => {
    const rows = 6;
    const { input, label, weight, order } = smallProblem('gradient-dropout', rows, 4);
    const network = createMlpNetwork(4, [5, 3], createRandom('init-dropout'));
    // Nonzero biases: with zero biases a row whose inputs all drop out sits exactly at the ReLU kink.
    const jitter = createRandom('biases');
    for (let k = 0; k < network.parameters.length; k++) network.parameters[k] += 0.2 * (jitter() - 0.5);
    const workspace = createMinibatchWorkspace(network, rows);
    const gradient = new Float64Array(network.parameters.length);
    const scratch = new Float64Array(network.parameters.length);
    const evaluate = (into: Float64Array) =>
      minibatchLossAndGradient(
        { network, input, order, start: 0, end: rows, dropoutRate: 0.3, random: createRandom('mask'), workspace },
        label,
        weight,
        into,
      );
    evaluate(gradient);
    const step = 1e-6;
    for (let k = 0; k < network.parameters.length; k++) {
      const held = network.parameters[k];
      network.parameters[k] = held + step;
      const up = evaluate(scratch);
      network.parameters[k] = held - step;
      const down = evaluate(scratch);
      network.parameters[k] = held;
      const numeric = (up - down) / (2 * step);
      expect(Math.abs(gradient[k] - numeric)).toBeLessThan(1e-6 * Math.max(1, Math.abs(numeric)));
    }
  });

  it('returns the mean of w (softplus(z) - y z) over the minibatch', () => {
    // With every weight and bias zero the logit is 0, so each row's loss is log 2.
    const { input, label, weight, order } = smallProblem('zero', 4, 3);
    const network = createMlpNetwork(3, [2], createRandom('zero'));
    network.parameters.fill(0);
    const workspace = createMinibatchWorkspace(network, 4);
    const gradient = new Float64Array(network.parameters.length);
    const loss = minibatchLossAndGradient(
      { network, input, order, start: 0, end: 4, dropoutRate: 0, random: null, workspace },
      label,
      weight,
      gradient,
    );
    const expected = (Math.LN2 * (weight[0] + weight[1] + weight[2] + weight[3])) / 4;
    expect(loss).toBeCloseTo(expected, 12);
  });

  it('with dropout zeroes about the dropout rate of positive hidden activations and scales the rest', () => {
    const rows = 200;
    const { input, label, order } = smallProblem('dropout', rows, 6);
    const network = createMlpNetwork(6, [50], createRandom('dropout-init'));
    const plain = createMinibatchWorkspace(network, rows);
    const dropped = createMinibatchWorkspace(network, rows);
    const gradient = new Float64Array(network.parameters.length);
    minibatchLossAndGradient(
      { network, input, order, start: 0, end: rows, dropoutRate: 0, random: null, workspace: plain },
      label,
      null,
      gradient,
    );
    minibatchLossAndGradient(
      {
        network,
        input,
        order,
        start: 0,
        end: rows,
        dropoutRate: 0.25,
        random: createRandom('mask'),
        workspace: dropped,
      },
      label,
      null,
      gradient,
    );
    let positive = 0;
    let zeroed = 0;
    for (let k = 0; k < rows * 50; k++) {
      const a = plain.activations[1][k];
      if (a <= 0) continue;
      positive++;
      const b = dropped.activations[1][k];
      if (b === 0) zeroed++;
      else expect(b).toBeCloseTo(a / 0.75, 12);
    }
    // Binomial(positive, 0.25): within 5 standard deviations.
    const sd = Math.sqrt(positive * 0.25 * 0.75);
    expect(Math.abs(zeroed - 0.25 * positive)).toBeLessThan(5 * sd);
  });
});

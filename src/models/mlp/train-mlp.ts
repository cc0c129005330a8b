import { type Random, shuffleInPlace } from '../../util/random.js';
import { ADAM_DEFAULTS, adamStep, createAdamState } from './adam.js';
import type { MlpSettings } from './mlp-settings.js';
import { createMinibatchWorkspace, forwardMinibatch, type MinibatchPass, minibatchLossAndGradient } from './minibatch-kernel.js';
import { createMlpNetwork, type MlpNetwork } from './network.js';
import type { SparseRows } from './sparse-rows.js';

/** What trainMlp returns besides the network: the mean training loss of each epoch. */
export interface MlpTrainingResult {
  readonly network: MlpNetwork;
  readonly epochLosses: Float64Array;
}

/**
 * trainMlp(input, label, weight, settings, random) fits an MLP with a sigmoid output
 * to 0/1 labels by minibatch Adam on the (optionally sample-weighted) binary
 * cross-entropy. `random` draws the Glorot initial weights, then each epoch's
 * minibatch order (a Fisher-Yates shuffle of the rows) and the dropout masks, in
 * that order, so one seed gives one network. `weight` null means every row has
 * weight 1 (the exponentiated-gradient reduction passes its cost-sensitive weights).
 * Running time O(epochs * rows * (nonzeros * h1 + sum h_l h_(l+1))); memory for one
 * minibatch of activations.
 */
export function trainMlp(
  input: SparseRows,
  label: Uint8Array,
  weight: Float64Array | null,
  settings: MlpSettings,
  random: Random,
): MlpTrainingResult {
  const network = createMlpNetwork(input.columns, settings.hiddenLayers, random);
  const workspace = createMinibatchWorkspace(network, settings.batchSize);
  const gradient = new Float64Array(network.parameters.length);
  const adam = createAdamState(network.parameters.length);
  const adamSettings = { ...ADAM_DEFAULTS, learningRate: settings.learningRate };
  const order = new Int32Array(input.rows);
  for (let r = 0; r < input.rows; r++) order[r] = r;
  const epochLosses = new Float64Array(settings.epochs);
  const pass: MinibatchPass = { network, input, order, start: 0, end: 0, dropoutRate: settings.dropoutRate, random, workspace };
  for (let epoch = 0; epoch < settings.epochs; epoch++) {
    shuffleInPlace(random, order);
    let lossSum = 0;
    for (let start = 0; start < input.rows; start += settings.batchSize) {
      const end = Math.min(start + settings.batchSize, input.rows);
      pass.start = start;
      pass.end = end;
      const loss = minibatchLossAndGradient(pass, label, weight, gradient);
      lossSum += loss * (end - start);
      adamStep(network.parameters, gradient, adam, adamSettings);
    }
    epochLosses[epoch] = lossSum / Math.max(1, input.rows);
  }
  return { network, epochLosses };
}

/**
 * mlpLogits(network, input) returns the pre-sigmoid output for every row of `input`
 * (no dropout). O(rows * (nonzeros * h1 + sum h_l h_(l+1))).
 */
export function mlpLogits(network: MlpNetwork, input: SparseRows): Float64Array {
  const capacity = 256;
  const workspace = createMinibatchWorkspace(network, capacity);
  const order = new Int32Array(input.rows);
  for (let r = 0; r < input.rows; r++) order[r] = r;
  const logits = new Float64Array(input.rows);
  const output = workspace.activations[network.layerSizes.length - 1];
  for (let start = 0; start < input.rows; start += capacity) {
    const end = Math.min(start + capacity, input.rows);
    forwardMinibatch({ network, input, order, start, end, dropoutRate: 0, random: null, workspace });
    logits.set(output.subarray(0, end - start), start);
  }
  return logits;
}

import { type Random, shuffleInPlace } from '../../util/random.js';
import { createMinibatchWorkspace, forwardMinibatch } from './minibatch-kernel.js';
import { javascriptStepper } from './minibatch-stepper.js';
import type { MlpSettings } from './mlp-settings.js';
import { createMlpNetwork, type MlpNetwork } from './network.js';
import type { SparseRows } from './sparse-rows.js';
import { mlpKernelModule } from './wasm/mlp-kernels.js';
import { wasmStepper } from './wasm/wasm-stepper.js';

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
 * The steps run on the WebAssembly kernels when they are compiled (mlpKernelModule:
 * dist/ built, or prepareMlpKernels() called), else on the JavaScript kernel; both give
 * bit-identical networks, losses and draws. `kernel: 'javascript'` forces the latter.
 * onEpoch(epoch), when given, is called after each epoch (1 to settings.epochs); it draws nothing.
 * Running time O(epochs * rows * (nonzeros * h1 + sum h_l h_(l+1))); memory for one
 * minibatch of activations (plus a copy of the input for the WebAssembly kernels).
 */
export function trainMlp(
  input: SparseRows,
  label: Uint8Array,
  weight: Float64Array | null,
  settings: MlpSettings,
  random: Random,
  kernel: 'auto' | 'javascript' = 'auto',
  onEpoch?: (epoch: number) => void,
): MlpTrainingResult {
  const network = createMlpNetwork(input.columns, settings.hiddenLayers, random);
  const module = kernel === 'auto' ? mlpKernelModule() : null;
  const stepper =
    module === null
      ? javascriptStepper(network, input, label, weight, settings, random)
      : wasmStepper(module, network, input, label, weight, settings, random);
  const order = stepper.order;
  for (let r = 0; r < input.rows; r++) order[r] = r;
  const epochLosses = new Float64Array(settings.epochs);
  for (let epoch = 0; epoch < settings.epochs; epoch++) {
    shuffleInPlace(random, order);
    let lossSum = 0;
    for (let start = 0; start < input.rows; start += settings.batchSize) {
      const end = Math.min(start + settings.batchSize, input.rows);
      lossSum += stepper.step(start, end) * (end - start);
    }
    epochLosses[epoch] = lossSum / Math.max(1, input.rows);
    onEpoch?.(epoch + 1);
  }
  stepper.finish();
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

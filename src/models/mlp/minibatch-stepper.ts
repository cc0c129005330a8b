import type { Random } from '../../util/random.js';
import { ADAM_DEFAULTS, adamStep, createAdamState } from './adam.js';
import { createMinibatchWorkspace, type MinibatchPass, minibatchLossAndGradient } from './minibatch-kernel.js';
import type { MlpSettings } from './mlp-settings.js';
import type { MlpNetwork } from './network.js';
import type { SparseRows } from './sparse-rows.js';

/**
 * One minibatch Adam step at a time over a fixed training set: what trainMlp's epoch
 * loop drives. `order` is the row order (trainMlp shuffles it each epoch);
 * step(start, end) runs the forward and backward passes over rows order[start..end)
 * (drawing dropout masks from the trainer's Random), applies one Adam update and
 * returns the minibatch's mean weighted cross-entropy; finish() leaves the trained
 * weights in the network's `parameters`.
 */
export interface MinibatchStepper {
  readonly order: Int32Array;
  step(start: number, end: number): number;
  finish(): void;
}

/**
 * javascriptStepper(network, input, label, weight, settings, random) steps with the
 * JavaScript kernel (minibatchLossAndGradient, adamStep) directly on
 * network.parameters. O(parameters + rows) memory.
 */
export function javascriptStepper(
  network: MlpNetwork,
  input: SparseRows,
  label: Uint8Array,
  weight: Float64Array | null,
  settings: MlpSettings,
  random: Random,
): MinibatchStepper {
  const workspace = createMinibatchWorkspace(network, settings.batchSize);
  const gradient = new Float64Array(network.parameters.length);
  const adam = createAdamState(network.parameters.length);
  const adamSettings = { ...ADAM_DEFAULTS, learningRate: settings.learningRate };
  const order = new Int32Array(input.rows);
  const pass: MinibatchPass = {
    network,
    input,
    order,
    start: 0,
    end: 0,
    dropoutRate: settings.dropoutRate,
    random,
    workspace,
  };
  return {
    order,
    step(start, end) {
      pass.start = start;
      pass.end = end;
      const loss = minibatchLossAndGradient(pass, label, weight, gradient);
      adamStep(network.parameters, gradient, adam, adamSettings);
      return loss;
    },
    finish() {},
  };
}

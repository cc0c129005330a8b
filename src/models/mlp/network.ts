import type { Random } from '../../util/random.js';

/**
 * A fully connected feedforward network with ReLU hidden layers and one output unit
 * (the logit; the score is its sigmoid). All weights and biases live in one flat
 * `parameters` array so an optimiser can treat them as a single vector. The weights
 * of layer l (from layerSizes[l] to layerSizes[l + 1] units) are stored input-major:
 * weight (i, j) at weightOffsets[l] + i * layerSizes[l + 1] + j; its biases start at
 * biasOffsets[l].
 */
export interface MlpNetwork {
  readonly layerSizes: readonly number[];
  readonly parameters: Float64Array;
  readonly weightOffsets: readonly number[];
  readonly biasOffsets: readonly number[];
}

/**
 * createMlpNetwork(inputs, hiddenLayers, random) lays out a network with the given
 * hidden layer widths and one output unit, weights drawn Glorot-uniform
 * (U(-s, s), s = sqrt(6 / (fanIn + fanOut)), Glorot and Bengio 2010, the Keras
 * default) from `random`, biases zero. O(number of parameters).
 */
export function createMlpNetwork(inputs: number, hiddenLayers: readonly number[], random: Random): MlpNetwork {
  const layerSizes = [inputs, ...hiddenLayers, 1];
  const weightOffsets: number[] = [];
  const biasOffsets: number[] = [];
  let size = 0;
  for (let l = 0; l + 1 < layerSizes.length; l++) {
    weightOffsets.push(size);
    size += layerSizes[l] * layerSizes[l + 1];
    biasOffsets.push(size);
    size += layerSizes[l + 1];
  }
  const parameters = new Float64Array(size);
  for (let l = 0; l + 1 < layerSizes.length; l++) {
    const fanIn = layerSizes[l];
    const fanOut = layerSizes[l + 1];
    const limit = Math.sqrt(6 / (fanIn + fanOut));
    const start = weightOffsets[l];
    for (let k = 0; k < fanIn * fanOut; k++) parameters[start + k] = (2 * random() - 1) * limit;
  }
  return { layerSizes, parameters, weightOffsets, biasOffsets };
}

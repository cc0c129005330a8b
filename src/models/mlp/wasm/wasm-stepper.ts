import type { Random } from '../../../util/random.js';
import { ADAM_DEFAULTS } from '../adam.js';
import type { MinibatchStepper } from '../minibatch-stepper.js';
import type { MlpSettings } from '../mlp-settings.js';
import type { MlpNetwork } from '../network.js';
import type { SparseRows } from '../sparse-rows.js';
import { MlpKernelInstance } from './mlp-kernels.js';

/** softplus(z) = log(1 + e^z), computed without overflow (as in minibatch-kernel.ts). */
function softplus(z: number): number {
  return z > 0 ? z + Math.log1p(Math.exp(-z)) : Math.log1p(Math.exp(z));
}

/** A block of the kernel instance's memory: its byte address and a view of it. */
interface Block<View> {
  readonly at: number;
  readonly view: View;
}

/** The state of a WebAssembly stepper: the kernel, the network's shape and every buffer in the instance's memory. */
interface WasmStepperState {
  readonly kernel: MlpKernelInstance['exports'];
  readonly sizes: readonly number[];
  readonly layers: number;
  readonly count: number;
  readonly batch: number;
  readonly parameters: Block<Float64Array>;
  readonly gradient: Block<Float64Array>;
  readonly first: Block<Float64Array>;
  readonly second: Block<Float64Array>;
  readonly activations: ReadonlyArray<Block<Float64Array>>;
  readonly deltas: ReadonlyArray<Block<Float64Array>>;
  readonly rowStart: Block<Int32Array>;
  readonly column: Block<Int32Array>;
  readonly value: Block<Float64Array>;
  readonly order: Block<Int32Array>;
  readonly indexScratch: Block<Int32Array>;
  readonly valueScratch: Block<Float64Array>;
  readonly transposed: Block<Float64Array>;
  readonly weightAt: readonly number[];
  readonly biasAt: readonly number[];
  readonly dropoutRate: number;
  readonly keepScale: number;
  readonly learningRate: number;
  /** Adam steps taken (its bias corrections). */
  adamSteps: number;
}

/**
 * Sizes the instance's memory (4 × parameters + 2 × batch × units + the largest weight
 * matrix + the input's nonzeros, 12 bytes each), allocates every buffer in it and copies
 * the network's parameters and the input rows there.
 */
function allocateState(
  module: object,
  network: MlpNetwork,
  input: SparseRows,
  settings: MlpSettings,
): WasmStepperState {
  const sizes = network.layerSizes;
  const layers = sizes.length - 1;
  const count = network.parameters.length;
  const batch = settings.batchSize;
  const nonzeros = input.rowStart[input.rows];
  const widest = Math.max(batch, ...sizes);
  const units = sizes.reduce((sum, size) => sum + size, 0);
  let largestLayer = 0;
  for (let l = 0; l + 1 < sizes.length; l++) largestLayer = Math.max(largestLayer, sizes[l] * sizes[l + 1]);
  const bytes =
    4 * 8 * count +
    2 * 8 * batch * units +
    4 * (input.rows + 1) +
    12 * nonzeros +
    4 * input.rows +
    12 * widest +
    8 * largestLayer +
    16 * (13 + 2 * sizes.length);
  const kernel = new MlpKernelInstance(module, bytes);
  const k = kernel.exports;
  const doubles = (length: number) => {
    const at = kernel.allocate(8 * length);
    return { at, view: new Float64Array(kernel.buffer, at, length) };
  };
  const ints = (length: number) => {
    const at = kernel.allocate(4 * length);
    return { at, view: new Int32Array(kernel.buffer, at, length) };
  };
  const parameters = doubles(count);
  const gradient = doubles(count);
  const first = doubles(count);
  const second = doubles(count);
  const activations = sizes.map((size) => doubles(batch * size));
  const deltas = sizes.map((size) => doubles(batch * size));
  const rowStart = ints(input.rows + 1);
  const column = ints(nonzeros);
  const value = doubles(nonzeros);
  const order = ints(input.rows);
  const indexScratch = ints(widest);
  const valueScratch = doubles(widest);
  const transposed = doubles(largestLayer);
  parameters.view.set(network.parameters);
  rowStart.view.set(input.rowStart);
  column.view.set(input.column.subarray(0, nonzeros));
  value.view.set(input.value.subarray(0, nonzeros));

  const weightAt = network.weightOffsets.map((offset) => 8 * offset);
  const biasAt = network.biasOffsets.map((offset) => 8 * offset);
  const dropoutRate = settings.dropoutRate;
  const keepScale = dropoutRate > 0 ? 1 / (1 - dropoutRate) : 1;

  return {
    kernel: k,
    sizes,
    layers,
    count,
    batch,
    parameters,
    gradient,
    first,
    second,
    activations,
    deltas,
    rowStart,
    column,
    value,
    order,
    indexScratch,
    valueScratch,
    transposed,
    weightAt,
    biasAt,
    dropoutRate,
    keepScale,
    learningRate: settings.learningRate,
    adamSteps: 0,
  };
}

/** The forward pass of rows order[start .. start + b): layer by layer, ReLU and the dropout draws in JavaScript. */
function forwardPass(state: WasmStepperState, start: number, b: number, random: Random): void {
  const { kernel: k, sizes, layers, rowStart, column, value, order, parameters, weightAt, biasAt, activations } = state;
  const { indexScratch, valueScratch, dropoutRate, keepScale } = state;
  for (let l = 0; l < layers; l++) {
    const outSize = sizes[l + 1];
    if (l === 0) {
      k.forwardSparse(
        rowStart.at,
        column.at,
        value.at,
        order.at,
        start,
        b,
        parameters.at + weightAt[0],
        parameters.at + biasAt[0],
        outSize,
        activations[1].at,
      );
    } else {
      k.forwardDense(
        activations[l].at,
        sizes[l],
        b,
        parameters.at + weightAt[l],
        parameters.at + biasAt[l],
        outSize,
        activations[l + 1].at,
        indexScratch.at,
        valueScratch.at,
      );
    }
    if (l + 1 < layers) {
      const out = activations[l + 1].view;
      for (let r = 0; r < b; r++) {
        const base = r * outSize;
        for (let j = 0; j < outSize; j++) {
          const z = out[base + j];
          if (z <= 0) out[base + j] = 0;
          else if (dropoutRate > 0) out[base + j] = random() < dropoutRate ? 0 : z * keepScale;
        }
      }
    }
  }
}

/** The minibatch's weighted logistic loss (summed) and the output layer's deltas, row by row. */
function lossAndOutputDeltas(
  state: WasmStepperState,
  start: number,
  b: number,
  label: Uint8Array,
  weight: Float64Array | null,
): number {
  const { activations, deltas, layers, order } = state;
  const logits = activations[layers].view;
  const outputDelta = deltas[layers].view;
  let loss = 0;
  for (let r = 0; r < b; r++) {
    const row = order.view[start + r];
    const z = logits[r];
    const y = label[row];
    const w = weight === null ? 1 : weight[row];
    loss += w * (softplus(z) - y * z);
    const probability = 1 / (1 + Math.exp(-z));
    outputDelta[r] = (w * (probability - y)) / b;
  }
  return loss;
}

/** The backward pass: bias and weight gradients of every layer, and the deltas of the hidden layers. */
function backwardPass(state: WasmStepperState, start: number, b: number): void {
  const { kernel: k, sizes, layers, rowStart, column, value, order, parameters, gradient, weightAt, biasAt } = state;
  const { activations, deltas, indexScratch, valueScratch, keepScale, transposed } = state;
  for (let l = layers - 1; l >= 0; l--) {
    const outSize = sizes[l + 1];
    k.backwardBias(deltas[l + 1].at, b, outSize, gradient.at + biasAt[l]);
    if (l === 0) {
      k.backwardSparseWeights(
        rowStart.at,
        column.at,
        value.at,
        order.at,
        start,
        b,
        deltas[1].at,
        outSize,
        gradient.at + weightAt[0],
      );
    } else {
      k.backwardDenseWeights(
        activations[l].at,
        sizes[l],
        b,
        deltas[l + 1].at,
        outSize,
        gradient.at + weightAt[l],
        indexScratch.at,
        valueScratch.at,
      );
      k.backwardDenseDeltas(
        activations[l].at,
        sizes[l],
        b,
        deltas[l + 1].at,
        outSize,
        parameters.at + weightAt[l],
        deltas[l].at,
        keepScale,
        transposed.at,
      );
    }
  }
}

/** One Adam step of the parameters on the gradient (its moments in the instance's memory). */
function adamUpdate(state: WasmStepperState): void {
  const { kernel: k, parameters, gradient, first, second, count } = state;
  const { beta1, beta2, epsilon } = ADAM_DEFAULTS;
  state.adamSteps += 1;
  k.adam(
    parameters.at,
    gradient.at,
    first.at,
    second.at,
    count,
    state.learningRate,
    beta1,
    beta2,
    1 - beta1,
    1 - beta2,
    1 / (1 - beta1 ** state.adamSteps),
    1 / (1 - beta2 ** state.adamSteps),
    epsilon,
  );
}

/**
 * wasmStepper(module, network, input, label, weight, settings, random) steps with the
 * WebAssembly kernels (mlp-kernel-text.ts): the network's parameters, the gradient,
 * Adam's moments, the activations and deltas of one minibatch and the input rows live
 * in the instance's memory; the loss, the output deltas, ReLU and the dropout draws
 * stay in JavaScript and run in the JavaScript kernel's order (layer by layer, row by
 * row, unit by unit), so each step, each Random draw and the trained weights are
 * exactly those of javascriptStepper (test/models/mlp/wasm/wasm-stepper.test.ts).
 * finish() copies the weights back into network.parameters.
 * Memory: 4 × parameters + 2 × batch × units + the largest weight matrix + the input's
 * nonzeros (12 bytes each).
 */
export function wasmStepper(
  module: object,
  network: MlpNetwork,
  input: SparseRows,
  label: Uint8Array,
  weight: Float64Array | null,
  settings: MlpSettings,
  random: Random,
): MinibatchStepper {
  const state = allocateState(module, network, input, settings);
  return {
    order: state.order.view,
    step(start, end) {
      const b = end - start;
      state.gradient.view.fill(0);
      forwardPass(state, start, b, random);
      const loss = lossAndOutputDeltas(state, start, b, label, weight);
      backwardPass(state, start, b);
      adamUpdate(state);
      return loss / b;
    },
    finish() {
      network.parameters.set(state.parameters.view);
    },
  };
}

/**
 * How one MLP is shaped and trained. Paper A section 4.2 fixes the widths, dropout,
 * learning rate and epochs of its two base models; the batch size is not stated
 * there and is ours (32, the Keras default; see docs/models.md).
 */
export interface MlpSettings {
  /** Widths of the ReLU hidden layers, input side first. */
  readonly hiddenLayers: readonly number[];
  /** Probability of zeroing a hidden activation during training (0 = none). */
  readonly dropoutRate: number;
  /** Adam's learning rate. */
  readonly learningRate: number;
  /** Passes over the training rows. */
  readonly epochs: number;
  /** Rows per Adam step; the last minibatch of an epoch may be smaller. */
  readonly batchSize: number;
}

/** Paper A's Robust-Base: 64 and 32 ReLU units, dropout 0.1, Adam lr 1e-3, 30 epochs. */
export const ROBUST_BASE_SETTINGS: MlpSettings = {
  hiddenLayers: [64, 32],
  dropoutRate: 0.1,
  learningRate: 1e-3,
  epochs: 30,
  batchSize: 32,
};

/** Paper A's Unstable-Base: 16 ReLU units, Adam lr 1e-2, 1 epoch, no regularisation. */
export const UNSTABLE_BASE_SETTINGS: MlpSettings = {
  hiddenLayers: [16],
  dropoutRate: 0,
  learningRate: 1e-2,
  epochs: 1,
  batchSize: 32,
};

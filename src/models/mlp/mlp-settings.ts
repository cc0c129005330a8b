/**
 * How one MLP is shaped and trained (paper A's two base models are presets in
 * papers/paper-a/models.ts).
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

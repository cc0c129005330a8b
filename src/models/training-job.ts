import type { TabularData } from '../data/tabular.js';
import { type BoostedTreesSpec, trainBoostedTreesModel } from './boosted-trees.js';
import { prepareMlpKernels } from './mlp/wasm/mlp-kernels.js';
import { type MlpModelSpec, type ScoredModel, trainMlpModel } from './mlp-model.js';

/**
 * One model to train, as plain data so it can cross to a worker thread: which kind,
 * its spec, the dataset's name, the training and held-out parts, the model's seed.
 */
export type TrainingJob =
  | {
      readonly kind: 'mlp';
      readonly spec: MlpModelSpec;
      readonly dataset: string;
      readonly train: TabularData;
      readonly heldOut: TabularData;
      readonly seed: string;
    }
  | {
      readonly kind: 'boosted-trees';
      readonly spec: BoostedTreesSpec;
      /** Worker threads for the search's cross-validation fits. */
      readonly threads: number;
      readonly dataset: string;
      readonly train: TabularData;
      readonly heldOut: TabularData;
      readonly seed: string;
    };

/**
 * runTrainingJob(job) trains the job's model (in this thread, or its CV fits on workers)
 * and returns its pool and card; onProgress(done, total) counts a boosted-trees search's
 * fits (draws × folds + 1) as they finish. MLPs train on the WebAssembly kernels (assembled on the
 * fly where dist/ is not built; same results as the JavaScript kernel).
 */
export async function runTrainingJob(
  job: TrainingJob,
  onProgress?: (done: number, total: number) => void,
): Promise<ScoredModel> {
  if (job.kind === 'mlp') {
    await prepareMlpKernels();
    return trainMlpModel(job.spec, job.dataset, job.train, job.heldOut, job.seed);
  }
  return trainBoostedTreesModel(job.spec, job.dataset, job.train, job.heldOut, job.seed, job.threads, onProgress);
}

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

/** What a training job's steps are: an MLP's epochs, or a boosted-trees search's fits. */
export type TrainingStepUnit = 'epochs' | 'fits';

/** One progress report of a training job: steps done of total. */
export interface TrainingStep {
  readonly done: number;
  readonly total: number;
  readonly unit: TrainingStepUnit;
}

/**
 * runTrainingJob(job, onProgress) trains the job's model (in this thread, or its CV fits on
 * workers) and returns its pool and card; onProgress(step) counts its steps as they finish:
 * a boosted-trees search's fits (draws × folds + 1), an MLP model's epochs (see
 * trainMlpModel). MLPs train on the WebAssembly kernels (assembled on the
 * fly where dist/ is not built; same results as the JavaScript kernel).
 */
export async function runTrainingJob(
  job: TrainingJob,
  onProgress?: (step: TrainingStep) => void,
): Promise<ScoredModel> {
  const report = (unit: TrainingStepUnit) =>
    onProgress === undefined ? undefined : (done: number, total: number) => onProgress({ done, total, unit });
  if (job.kind === 'mlp') {
    await prepareMlpKernels();
    return trainMlpModel(job.spec, job.dataset, job.train, job.heldOut, job.seed, report('epochs'));
  }
  const fits = report('fits');
  return trainBoostedTreesModel(job.spec, job.dataset, job.train, job.heldOut, job.seed, job.threads, fits);
}

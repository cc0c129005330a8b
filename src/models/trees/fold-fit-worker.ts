import { parentPort, workerData } from 'node:worker_threads';
import type { GradientBoostingSettings } from './gradient-boosting.js';
import { type FoldFit, scoreFoldFit } from './random-search.js';
import { workerFailure } from '../worker-failure.js';

/**
 * The worker-thread entry of foldFitPool: holds one search's data (workerData) and
 * answers each FoldFit message with { index, accuracy, iterations } or { index } and a WorkerFailure.
 */
const setup = workerData as {
  features: Float64Array;
  columns: number;
  label: Uint8Array;
  base: GradientBoostingSettings;
  seed: string;
};
parentPort?.on('message', (message: { index: number; fit: FoldFit }) => {
  try {
    const outcome = scoreFoldFit(setup, setup.label, setup.base, setup.seed, message.fit);
    parentPort?.postMessage({ index: message.index, ...outcome });
  } catch (error) {
    parentPort?.postMessage({ index: message.index, ...workerFailure(error) });
  }
});

import { workerData } from 'node:worker_threads';
import { serveThreadPool } from '../../util/serve-thread-pool.js';
import type { GradientBoostingSettings } from './gradient-boosting.js';
import { type FoldFit, scoreFoldFit } from './random-search.js';

/**
 * The worker-thread entry of foldFitPool: holds one search's data (workerData) and
 * answers each FoldFit job with its { accuracy, iterations } (a failure goes back through
 * the thread pool's codec).
 */
const setup = workerData as {
  features: Float64Array;
  columns: number;
  label: Uint8Array;
  base: GradientBoostingSettings;
  seed: string;
};
serveThreadPool<FoldFit, { accuracy: number; iterations: number }>({
  handle: (fit) => scoreFoldFit(setup, setup.label, setup.base, setup.seed, fit),
});

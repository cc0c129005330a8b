import { serveThreadPool } from '../util/serve-thread-pool.js';
import type { ScoredModel } from './mlp-model.js';
import { runTrainingJob, type TrainingJob } from './training-job.js';

/**
 * The worker-thread entry of runTrainingJobs: trains each job it is sent and answers with
 * the scored model (a failure goes back through the thread pool's codec, which keeps an
 * InputError an InputError).
 */
serveThreadPool<TrainingJob, ScoredModel>({ handle: runTrainingJob });

import { parentPort, workerData } from 'node:worker_threads';
import { runTrainingJob, type TrainingJob } from './training-job.js';
import { workerFailure } from './worker-failure.js';

/**
 * The worker-thread entry of runTrainingJobs: trains the job in workerData and posts
 * back { result } or a WorkerFailure (which keeps an InputError an InputError).
 */
const job = workerData as TrainingJob;
runTrainingJob(job).then(
  (result) => parentPort?.postMessage({ result }),
  (error) => parentPort?.postMessage(workerFailure(error)),
);

import { parentPort, workerData } from 'node:worker_threads';
import { runTrainingJob, type TrainingJob } from './training-job.js';

/**
 * The worker-thread entry of runTrainingJobs: trains the job in workerData and posts
 * back { pool, card } or { error }.
 */
const job = workerData as TrainingJob;
runTrainingJob(job).then(
  (result) => parentPort?.postMessage({ result }),
  (error) => parentPort?.postMessage({ error: (error as Error)?.stack ?? String(error) }),
);

import pLimit from 'p-limit';
import { compiledModule } from '../util/paths.js';
import { ThreadPool } from '../util/thread-pool.js';
import type { ScoredModel } from './mlp-model.js';
import { runTrainingJob, type TrainingJob, type TrainingStep } from './training-job.js';
import { workersAvailable } from './workers-available.js';

/** What runTrainingJobs reports besides each result: a job starting, and its steps (in this thread or a worker). */
export interface TrainingProgress {
  onStart?: (index: number) => void;
  /** A job's steps done of total: an MLP's epochs, a boosted-trees search's fits (from a worker: every 250 ms at most).
   * */
  onProgress?: (index: number, step: TrainingStep) => void;
}

/**
 * runTrainingJobs(jobs, threads, onDone, progress) trains the jobs, `threads` at a time on
 * worker threads (a ThreadPool; they load the compiled dist/ code), or one after the other in this
 * thread when threads <= 1, there is a single job, or dist/ is not built. Results come back in the jobs'
 * order and are handed out in that order (put the longest first); each job's result does
 * not depend on the thread count (its draws derive from its own seed). onDone(index,
 * result) is called as each job finishes; progress says when each starts and how far it is.
 */
export async function runTrainingJobs(
  jobs: readonly TrainingJob[],
  threads: number,
  onDone?: (index: number, result: ScoredModel) => void,
  progress: TrainingProgress = {},
): Promise<ScoredModel[]> {
  if (threads <= 1 || jobs.length <= 1 || !workersAvailable()) {
    const results: ScoredModel[] = [];
    for (const [index, job] of jobs.entries()) {
      progress.onStart?.(index);
      const result = await runTrainingJob(job, (step) => progress.onProgress?.(index, step));
      onDone?.(index, result);
      results.push(result);
    }
    return results;
  }
  const pool = new ThreadPool<TrainingJob, ScoredModel>(compiledModule('models/training-worker.js'), {
    size: Math.min(threads, jobs.length),
    name: 'training worker',
  });
  // At most `threads` jobs are handed to the pool at once, so a job's start is when it starts training.
  const limit = pLimit(threads);
  try {
    return await Promise.all(
      jobs.map((job, index) =>
        limit(async () => {
          progress.onStart?.(index);
          const context = `training worker failed on ${job.dataset}/${job.spec.name}`;
          const onProgress = (step: unknown) => progress.onProgress?.(index, step as TrainingStep);
          const result = await pool.run(job, { context, onProgress });
          onDone?.(index, result);
          return result;
        }),
      ),
    );
  } finally {
    await pool.close();
  }
}

import { serveThreadPool } from '../util/serve-thread-pool.js';
import type { ScoredModel } from './mlp-model.js';
import { runTrainingJob, type TrainingJob, type TrainingStep } from './training-job.js';

/**
 * The worker-thread entry of runTrainingJobs: trains each job it is sent and answers with
 * the scored model, reporting its steps (TrainingStep: epochs or fits) as they finish, at
 * most one report each 250 ms and always the last (a failure goes back through the thread pool's codec, which keeps an
 * InputError an InputError).
 */
serveThreadPool<TrainingJob, ScoredModel>({
  handle: (job, report) => {
    let last = 0;
    return runTrainingJob(job, (step: TrainingStep) => {
      const now = performance.now();
      if (now - last < 250 && step.done < step.total) return;
      last = now;
      report(step);
    });
  },
});

import { serveThreadPool } from '../util/serve-thread-pool.js';
import {
  type ExactMinimumBenchmarkRow,
  type ExactMinimumJob,
  exactMinimumBenchmarkRow,
} from './exact-minimal-flips-benchmark.js';

/**
 * The worker-thread entry of benchmarkExactMinimalFlips: answers each job { row,
 * maxEvaluations } with exactMinimumBenchmarkRow(row) (a failure goes back through the
 * thread pool's codec, which keeps an InputError an InputError).
 */
serveThreadPool<ExactMinimumJob, ExactMinimumBenchmarkRow>({
  handle: (job) => exactMinimumBenchmarkRow(job.row, job.maxEvaluations),
});

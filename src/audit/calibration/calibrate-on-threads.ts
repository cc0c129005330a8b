import { availableParallelism } from 'node:os';
import type { SequentialThresholds } from '../../stats/thresholds.js';
import { compiledModule } from '../../util/paths.js';
import { ThreadPool } from '../../util/thread-pool.js';
import {
  type CalibrationChunkResult,
  type CalibrationProgress,
  type CalibrationResult,
  type CalibrationStage,
  type CalibrationStep,
  calibrationSteps,
  runCalibrationSteps,
  stepProgress,
} from './calibrate-glr-thresholds.js';
import {
  type CalibrationChunk,
  type CalibrationOptions,
  type CalibrationSetting,
  planCalibration,
} from './calibration-plan.js';
import type { TuningWindow } from './threshold-paths.js';

/** What a calibration worker is told: plan a calibration (once per calibration, by id), or forget one. */
export type CalibrationNotice =
  | {
      readonly type: 'plan';
      readonly planId: number;
      readonly setting: CalibrationSetting;
      readonly options: CalibrationOptions;
    }
  | { readonly type: 'forget'; readonly planId: number };

/** A job of a calibration worker: run one chunk of a planned calibration. */
export interface CalibrationChunkRequest {
  readonly planId: number;
  readonly stage: CalibrationStage;
  readonly thresholds?: SequentialThresholds;
  readonly window?: TuningWindow;
  readonly chunk: CalibrationChunk;
}

/** How calibrateGlrThresholdsOnThreads runs. */
export interface CalibrationThreadOptions {
  /** Worker threads (default: one per core); 1 runs every chunk in this thread. */
  readonly threads?: number;
  readonly onProgress?: CalibrationProgress;
}

/**
 * A pool of calibration worker threads (dist/src/audit/calibration/calibration-worker.js, a
 * ThreadPool) that any number of calibrations share at once: each calibration is planned once
 * in every worker (a notice), then its chunks join the pool's one queue, two in flight per worker (so a worker never
 * waits for a
 * round trip), and each calibration's steps advance as their chunks come back. Small
 * calibrations (score and logit access: a few chunks each) thus keep every thread busy
 * together, and no calibration pays for starting threads. A worker's InputError comes
 * back as an InputError; any other failure as an Error with the worker's stack.
 */
export class CalibrationWorkers {
  private readonly pool: ThreadPool<CalibrationChunkRequest, CalibrationChunkResult, CalibrationNotice>;
  private nextPlan = 0;

  constructor(readonly threads: number) {
    this.pool = new ThreadPool(compiledModule('audit/calibration/calibration-worker.js'), {
      size: threads,
      depth: 2,
      name: 'calibration worker',
    });
  }

  /**
   * calibrate(setting, options, progress) runs one calibration on the pool (concurrently
   * with any others) and resolves with calibrateGlrThresholds' result for the same
   * inputs. Throws what calibrateGlrThresholds throws.
   */
  async calibrate(
    setting: CalibrationSetting,
    options: CalibrationOptions,
    progress?: CalibrationProgress,
  ): Promise<CalibrationResult> {
    const plan = planCalibration(setting, options);
    const planId = this.nextPlan++;
    this.pool.notify({ type: 'plan', planId, setting, options });
    try {
      const steps = calibrationSteps(plan);
      let next = steps.next([]);
      while (!next.done) next = steps.next(await this.runStep(planId, next.value, progress));
      return next.value;
    } finally {
      // The workers drop the plan and its scratch (projected pools): a pool may serve many calibrations.
      this.pool.notify({ type: 'forget', planId });
    }
  }

  private runStep(
    planId: number,
    step: CalibrationStep,
    progress?: CalibrationProgress,
  ): Promise<CalibrationChunkResult[]> {
    let done = 0;
    return Promise.all(
      step.chunks.map((chunk) =>
        this.pool
          .run({
            planId,
            stage: step.stage,
            thresholds: step.thresholds,
            window: step.window,
            chunk,
          })
          .then((result) => {
            done++;
            progress?.(step.stage, ...stepProgress(step, done));
            return result;
          }),
      ),
    );
  }

  /** Stops every worker. */
  async close(): Promise<void> {
    await this.pool.close();
  }
}

/** threadsFor(threads, chunks): the worker threads worth starting (default one per core, at most one per chunk). */
export function threadsFor(threads: number | undefined, chunks: number): number {
  return Math.max(1, Math.min(threads ?? availableParallelism(), chunks));
}

/**
 * calibrateGlrThresholdsOnThreads(setting, options, threadOptions) is
 * calibrateGlrThresholds with its chunks spread over worker threads (CalibrationWorkers:
 * each plans the same calibration, then runs the chunks it is sent; results are merged in
 * chunk order). Every chunk has its own seed, so the result is the same for any thread
 * count, including 1 (this thread). Throws what calibrateGlrThresholds throws (InputError
 * for a bad setting or an unreachable alpha or beta). The workers are stopped before it
 * returns or throws. Running time: calibrateGlrThresholds' divided by the threads.
 */
export async function calibrateGlrThresholdsOnThreads(
  setting: CalibrationSetting,
  options: CalibrationOptions,
  threadOptions: CalibrationThreadOptions = {},
): Promise<CalibrationResult> {
  const plan = planCalibration(setting, options);
  const threads = threadsFor(threadOptions.threads, plan.chunks.length);
  if (threads <= 1) return runCalibrationSteps(plan, threadOptions.onProgress);
  const workers = new CalibrationWorkers(threads);
  try {
    return await workers.calibrate(setting, options, threadOptions.onProgress);
  } finally {
    await workers.close();
  }
}

import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { SequentialThresholds } from '../../stats/thresholds.js';
import { InputError } from '../../util/errors.js';
import { compiledModule } from '../../util/paths.js';
import {
  type CalibrationChunkResult,
  type CalibrationProgress,
  type CalibrationResult,
  type CalibrationStage,
  type CalibrationStep,
  calibrationSteps,
  runCalibrationSteps,
} from './calibrate-glr-thresholds.js';
import {
  type CalibrationChunk,
  type CalibrationOptions,
  type CalibrationSetting,
  planCalibration,
} from './calibration-plan.js';

/** A message to a calibration worker: plan a calibration (once per calibration), or run one of its chunks. */
export type CalibrationWorkRequest =
  | {
      readonly type: 'plan';
      readonly planId: number;
      readonly setting: CalibrationSetting;
      readonly options: CalibrationOptions;
    }
  | { readonly type: 'forget'; readonly planId: number }
  | {
      readonly type: 'chunk';
      readonly id: number;
      readonly planId: number;
      readonly stage: CalibrationStage;
      readonly thresholds?: SequentialThresholds;
      readonly chunk: CalibrationChunk;
    };

/** A worker's answer to a chunk: its result, or what stopped it. */
export type CalibrationResultMessage =
  | { readonly id: number; readonly result: CalibrationChunkResult }
  | {
      readonly id: number;
      readonly failure: { readonly message: string; readonly stack: string; readonly inputError: boolean };
    };

/** How calibrateGlrThresholdsOnThreads runs. */
export interface CalibrationThreadOptions {
  /** Worker threads (default: one per core); 1 runs every chunk in this thread. */
  readonly threads?: number;
  readonly onProgress?: CalibrationProgress;
}

interface Job {
  readonly request: Extract<CalibrationWorkRequest, { type: 'chunk' }>;
  readonly resolve: (result: CalibrationChunkResult) => void;
  readonly reject: (error: Error) => void;
}

interface PoolWorker {
  readonly worker: Worker;
  readonly pending: Map<number, Job>;
}

/**
 * A pool of calibration worker threads (dist/src/audit/calibration/calibration-worker.js) that any
 * number of calibrations share at once: each calibration is planned once in every worker,
 * then its chunks join one queue, two in flight per worker (so a worker never waits for a
 * round trip), and each calibration's steps advance as their chunks come back. Small
 * calibrations (score and logit access: a few chunks each) thus keep every thread busy
 * together, and no calibration pays for starting threads. A worker's InputError comes
 * back as an InputError; any other failure as an Error with the worker's stack.
 */
export class CalibrationWorkers {
  private readonly workers: PoolWorker[] = [];
  private readonly queue: Job[] = [];
  private nextId = 0;
  private nextPlan = 0;

  constructor(readonly threads: number) {
    const file = compiledModule('audit/calibration/calibration-worker.js');
    for (let i = 0; i < threads; i++) {
      const entry: PoolWorker = { worker: new Worker(file), pending: new Map() };
      const failAll = (error: Error) => {
        for (const job of entry.pending.values()) job.reject(error);
        entry.pending.clear();
      };
      entry.worker.on('message', (message: CalibrationResultMessage) => {
        const job = entry.pending.get(message.id);
        if (job === undefined) return;
        entry.pending.delete(message.id);
        if ('result' in message) job.resolve(message.result);
        else
          job.reject(
            message.failure.inputError
              ? new InputError(message.failure.message)
              : new Error(`calibration worker failed: ${message.failure.stack}`),
          );
        this.feed(entry);
      });
      entry.worker.on('error', failAll);
      entry.worker.on('exit', (code) => failAll(new Error(`calibration worker exited with code ${code}`)));
      this.workers.push(entry);
    }
  }

  private feed(entry: PoolWorker): void {
    while (entry.pending.size < 2 && this.queue.length > 0) {
      const job = this.queue.shift() as Job;
      entry.pending.set(job.request.id, job);
      entry.worker.postMessage(job.request);
    }
  }

  private submit(request: Job['request']): Promise<CalibrationChunkResult> {
    return new Promise((resolve, reject) => {
      this.queue.push({ request, resolve, reject });
      for (const entry of this.workers) this.feed(entry);
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
    for (const entry of this.workers)
      entry.worker.postMessage({ type: 'plan', planId, setting, options } satisfies CalibrationWorkRequest);
    try {
      const steps = calibrationSteps(plan);
      let next = steps.next([]);
      while (!next.done) next = steps.next(await this.runStep(planId, next.value, progress));
      return next.value;
    } finally {
      // The workers drop the plan and its scratch (projected pools): a pool may serve many calibrations.
      for (const entry of this.workers)
        entry.worker.postMessage({ type: 'forget', planId } satisfies CalibrationWorkRequest);
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
        this.submit({
          type: 'chunk',
          id: this.nextId++,
          planId,
          stage: step.stage,
          thresholds: step.thresholds,
          chunk,
        }).then((result) => {
          done++;
          progress?.(step.stage, done, step.chunks.length);
          return result;
        }),
      ),
    );
  }

  /** Stops every worker. */
  async close(): Promise<void> {
    await Promise.all(this.workers.map((entry) => entry.worker.terminate()));
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

import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { SequentialThresholds } from '../stats/thresholds.js';
import { InputError } from '../util/errors.js';
import { compiledModule } from '../util/paths.js';
import {
  type CalibrationChunkResult,
  type CalibrationProgress,
  type CalibrationResult,
  type CalibrationStage,
  type CalibrationStep,
  calibrationSteps,
  runCalibrationSteps,
} from './calibrate-glr-thresholds.js';
import { type CalibrationChunk, type CalibrationOptions, type CalibrationSetting, planCalibration } from './calibration-plan.js';

/** What a calibration worker is started with: the setting and options it plans from. */
export interface CalibrationWorkerData {
  readonly setting: CalibrationSetting;
  readonly options: CalibrationOptions;
}

/** One chunk for a worker to run. */
export interface CalibrationWorkRequest {
  readonly id: number;
  readonly stage: CalibrationStage;
  readonly thresholds?: SequentialThresholds;
  readonly chunk: CalibrationChunk;
}

/** A worker's answer: the chunk's result, or what stopped it. */
export type CalibrationResultMessage =
  | { readonly id: number; readonly result: CalibrationChunkResult }
  | { readonly id: number; readonly failure: { readonly message: string; readonly stack: string; readonly inputError: boolean } };

/** How calibrateGlrThresholdsOnThreads runs. */
export interface CalibrationThreadOptions {
  /** Worker threads (default: one per core); 1 runs every chunk in this thread. */
  readonly threads?: number;
  readonly onProgress?: CalibrationProgress;
}

/** A worker and the chunks it has in flight. */
interface CalibrationWorker {
  readonly worker: Worker;
  readonly pending: Map<number, { resolve: (result: CalibrationChunkResult) => void; reject: (error: Error) => void }>;
}

function startWorker(data: CalibrationWorkerData): CalibrationWorker {
  const entry: CalibrationWorker = { worker: new Worker(compiledModule('audit/calibration-worker.js'), { workerData: data }), pending: new Map() };
  const failAll = (error: Error) => {
    for (const pending of entry.pending.values()) pending.reject(error);
    entry.pending.clear();
  };
  entry.worker.on('message', (message: CalibrationResultMessage) => {
    const pending = entry.pending.get(message.id);
    if (pending === undefined) return;
    entry.pending.delete(message.id);
    if ('result' in message) pending.resolve(message.result);
    else pending.reject(message.failure.inputError ? new InputError(message.failure.message) : new Error(`calibration worker failed: ${message.failure.stack}`));
  });
  entry.worker.on('error', failAll);
  entry.worker.on('exit', (code) => failAll(new Error(`calibration worker exited with code ${code}`)));
  return entry;
}

/**
 * Runs one step's chunks on the workers, two in flight per worker (so a worker never waits
 * for a round trip), and resolves with the results in the chunks' order. O(chunks).
 */
function runStep(workers: readonly CalibrationWorker[], step: CalibrationStep, nextId: () => number, progress?: CalibrationProgress): Promise<CalibrationChunkResult[]> {
  const results: CalibrationChunkResult[] = new Array(step.chunks.length);
  let cursor = 0;
  let done = 0;
  return new Promise((resolve, reject) => {
    let failed = false;
    const feed = (entry: CalibrationWorker): void => {
      if (failed || cursor >= step.chunks.length) return;
      const index = cursor++;
      const id = nextId();
      const request: CalibrationWorkRequest = { id, stage: step.stage, thresholds: step.thresholds, chunk: step.chunks[index] };
      entry.pending.set(id, {
        resolve: (result) => {
          results[index] = result;
          done++;
          progress?.(step.stage, done, step.chunks.length);
          if (done === step.chunks.length) resolve(results);
          else feed(entry);
        },
        reject: (error) => {
          failed = true;
          reject(error);
        },
      });
      entry.worker.postMessage(request);
    };
    if (step.chunks.length === 0) resolve(results);
    for (const entry of workers) {
      feed(entry);
      feed(entry);
    }
  });
}

/**
 * calibrateGlrThresholdsOnThreads(setting, options, threadOptions) is
 * calibrateGlrThresholds with its chunks spread over `threads` worker threads (each plans
 * the same calibration from the setting and options, then runs the chunks it is sent;
 * results are merged in chunk order). Every chunk has its own seed, so the result is the
 * same for any thread count, including 1 (this thread). Throws what
 * calibrateGlrThresholds throws (InputError for a bad setting or an unreachable alpha or
 * beta); a worker's InputError comes back as an InputError. The workers are stopped
 * before it returns or throws. Running time: calibrateGlrThresholds' divided by the threads.
 */
export async function calibrateGlrThresholdsOnThreads(
  setting: CalibrationSetting,
  options: CalibrationOptions,
  threadOptions: CalibrationThreadOptions = {},
): Promise<CalibrationResult> {
  const plan = planCalibration(setting, options);
  const threads = Math.max(1, Math.min(threadOptions.threads ?? availableParallelism(), plan.chunks.length));
  if (threads <= 1) return runCalibrationSteps(plan, threadOptions.onProgress);
  const workers = Array.from({ length: threads }, () => startWorker({ setting, options }));
  let id = 0;
  try {
    const steps = calibrationSteps(plan);
    let next = steps.next([]);
    while (!next.done) next = steps.next(await runStep(workers, next.value, () => id++, threadOptions.onProgress));
    return next.value;
  } finally {
    await Promise.all(workers.map((entry) => entry.worker.terminate()));
  }
}

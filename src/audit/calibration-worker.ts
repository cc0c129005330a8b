import { parentPort, workerData } from 'node:worker_threads';
import { isInputError } from '../util/errors.js';
import { type CalibrationStep, runCalibrationChunk } from './calibrate-glr-thresholds.js';
import type { CalibrationResultMessage, CalibrationWorkerData, CalibrationWorkRequest } from './calibrate-on-threads.js';
import { planCalibration } from './calibration-plan.js';

/**
 * The worker-thread entry of calibrateGlrThresholdsOnThreads: it plans the calibration
 * once from workerData (the same plan as the parent's: planCalibration is pure), then
 * runs each chunk it is sent (runCalibrationChunk) and posts the result back, the
 * histograms' buffers transferred; a failure comes back as text, an InputError marked as
 * one so the parent rethrows it as bad input.
 */
const { setting, options } = workerData as CalibrationWorkerData;
const plan = planCalibration(setting, options);
parentPort?.on('message', (request: CalibrationWorkRequest) => {
  try {
    const step: Pick<CalibrationStep, 'stage' | 'thresholds'> = { stage: request.stage, thresholds: request.thresholds };
    const result = runCalibrationChunk(plan, step, request.chunk);
    const transfer: ArrayBuffer[] = [];
    if ('nullBins' in result) {
      if (result.nullBins !== null) transfer.push(result.nullBins.buffer as ArrayBuffer);
      if (result.alternativeBins !== null) transfer.push(result.alternativeBins.buffer as ArrayBuffer);
    }
    parentPort?.postMessage({ id: request.id, result } satisfies CalibrationResultMessage, transfer);
  } catch (error) {
    const failure = { message: (error as Error)?.message ?? String(error), stack: (error as Error)?.stack ?? String(error), inputError: isInputError(error) };
    parentPort?.postMessage({ id: request.id, failure } satisfies CalibrationResultMessage);
  }
});

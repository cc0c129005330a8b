import { parentPort } from 'node:worker_threads';
import { isInputError } from '../../util/errors.js';
import { runCalibrationChunk } from './calibrate-glr-thresholds.js';
import type { CalibrationResultMessage, CalibrationWorkRequest } from './calibrate-on-threads.js';
import { type CalibrationPlan, planCalibration } from './calibration-plan.js';

/**
 * The worker-thread entry of CalibrationWorkers: a 'plan' message plans a calibration
 * (the same plan as the parent's: planCalibration is pure) and keeps it by id; a 'chunk'
 * message runs one chunk of it (runCalibrationChunk) and posts the result back, the
 * histograms' buffers transferred. A failure comes back as text, an InputError marked as
 * one so the parent rethrows it as bad input.
 */
// 'forget' drops a finished calibration's plan (its scratch is keyed by the plan, weakly).
const plans = new Map<number, CalibrationPlan>();
parentPort?.on('message', (request: CalibrationWorkRequest) => {
  if (request.type === 'plan') {
    plans.set(request.planId, planCalibration(request.setting, request.options));
    return;
  }
  if (request.type === 'forget') {
    plans.delete(request.planId);
    return;
  }
  try {
    const plan = plans.get(request.planId);
    if (plan === undefined) throw new Error(`calibration worker: no plan ${request.planId}`);
    const result = runCalibrationChunk(plan, { stage: request.stage, thresholds: request.thresholds }, request.chunk);
    const transfer: ArrayBuffer[] = [];
    if ('nullBins' in result) {
      if (result.nullBins !== null) transfer.push(result.nullBins.buffer as ArrayBuffer);
      if (result.alternativeBins !== null) transfer.push(result.alternativeBins.buffer as ArrayBuffer);
    }
    parentPort?.postMessage({ id: request.id, result } satisfies CalibrationResultMessage, transfer);
  } catch (error) {
    const failure = {
      message: (error as Error)?.message ?? String(error),
      stack: (error as Error)?.stack ?? String(error),
      inputError: isInputError(error),
    };
    parentPort?.postMessage({ id: request.id, failure } satisfies CalibrationResultMessage);
  }
});

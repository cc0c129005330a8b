import { serveThreadPool } from '../../util/serve-thread-pool.js';
import { type CalibrationChunkResult, runCalibrationChunk } from './calibrate-glr-thresholds.js';
import type { CalibrationChunkRequest, CalibrationNotice } from './calibrate-on-threads.js';
import { type CalibrationPlan, planCalibration } from './calibration-plan.js';

/**
 * The worker-thread entry of CalibrationWorkers: a 'plan' notice plans a calibration (the
 * same plan as the parent's: planCalibration is pure) and keeps it by id, a 'forget' notice
 * drops a finished one; each job runs one chunk of a kept plan (runCalibrationChunk) and
 * answers with its result, the histograms' buffers transferred.
 */
const plans = new Map<number, CalibrationPlan>();
serveThreadPool<CalibrationChunkRequest, CalibrationChunkResult, CalibrationNotice>({
  notice: (notice) => {
    if (notice.type === 'plan') plans.set(notice.planId, planCalibration(notice.setting, notice.options));
    else plans.delete(notice.planId);
  },
  handle: (request) => {
    const plan = plans.get(request.planId);
    if (plan === undefined) throw new Error(`calibration worker: no plan ${request.planId}`);
    return runCalibrationChunk(
      plan,
      { stage: request.stage, thresholds: request.thresholds, window: request.window },
      request.chunk,
    );
  },
  transfer: (result) => {
    const transfer: ArrayBuffer[] = [];
    for (const entry of result) {
      if (!('nullBins' in entry)) continue;
      if (entry.nullBins !== null) transfer.push(entry.nullBins.buffer as ArrayBuffer);
      if (entry.alternativeBins !== null) transfer.push(entry.alternativeBins.buffer as ArrayBuffer);
    }
    return transfer;
  },
});

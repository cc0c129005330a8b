import { parentPort } from 'node:worker_threads';
import { type MaskedRangeRequest, maskedRange } from './voprf-label-table.js';

/**
 * The worker-thread entry of createVoprfLabelTable: for one message (a MaskedRangeRequest)
 * it posts back { entries } (maskedRange) or { error }.
 */
parentPort?.on('message', (request: MaskedRangeRequest) => {
  try {
    parentPort?.postMessage({ entries: maskedRange(request) });
  } catch (error) {
    parentPort?.postMessage({ error: (error as Error)?.stack ?? String(error) });
  }
});

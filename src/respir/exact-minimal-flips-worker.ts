import { parentPort } from 'node:worker_threads';
import { isInputError } from '../util/errors.js';
import { exactMinimumBenchmarkRow, type ExactMinimumWorkloadRow } from './exact-minimal-flips-benchmark.js';

/**
 * The worker-thread entry of benchmarkExactMinimalFlips: for each message
 * { index, row, maxEvaluations } it computes exactMinimumBenchmarkRow(row) and posts back
 * { index, result } or { index, error, inputError } (an InputError keeps its message
 * across the thread).
 */
parentPort?.on('message', (message: { index: number; row: ExactMinimumWorkloadRow; maxEvaluations?: number }) => {
  try {
    parentPort?.postMessage({
      index: message.index,
      result: exactMinimumBenchmarkRow(message.row, message.maxEvaluations),
    });
  } catch (error) {
    parentPort?.postMessage({
      index: message.index,
      error: (error as Error)?.stack ?? String(error),
      inputError: isInputError(error) ? error.message : undefined,
    });
  }
});

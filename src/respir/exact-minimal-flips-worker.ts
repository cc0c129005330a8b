import { parentPort } from 'node:worker_threads';
import { isInputError } from '../util/errors.js';
import { exactManipulationCost } from './exact-manipulation-cost.js';
import type { ExactMinimumWorkloadRow } from './exact-minimal-flips-benchmark.js';

/**
 * The worker-thread entry of benchmarkExactMinimalFlips: for each message
 * { index, row, maxEvaluations } it computes exactManipulationCost(row.setting) and posts
 * back { index, result: {flips, lowerBound, upperBound, exact, evaluations, seconds} }
 * or { index, error, inputError } (an InputError keeps its message across the thread).
 */
parentPort?.on('message', (message: { index: number; row: ExactMinimumWorkloadRow; maxEvaluations?: number }) => {
  const started = process.hrtime.bigint();
  try {
    const { respir } = exactManipulationCost(message.row.setting, undefined, { maxEvaluations: message.maxEvaluations });
    parentPort?.postMessage({
      index: message.index,
      result: {
        flips: respir.flips,
        lowerBound: respir.lowerBound,
        upperBound: respir.upperBound,
        exact: respir.exact,
        evaluations: respir.evaluations,
        seconds: Number(process.hrtime.bigint() - started) / 1e9,
      },
    });
  } catch (error) {
    parentPort?.postMessage({ index: message.index, error: (error as Error)?.stack ?? String(error), inputError: isInputError(error) ? error.message : undefined });
  }
});

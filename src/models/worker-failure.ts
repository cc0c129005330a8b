import { InputError, isInputError } from '../util/errors.js';

/** How a model-training worker reports a failure to its parent thread (plain data). */
export interface WorkerFailure {
  /** The stack (or text) of what was thrown. */
  readonly error: string;
  /** The message when what was thrown was an InputError (bad input, exit 2), else absent. */
  readonly inputError?: string;
}

/** workerFailure(thrown) turns what a worker caught into a message for its parent. O(1). */
export function workerFailure(thrown: unknown): WorkerFailure {
  const error = (thrown as Error)?.stack ?? String(thrown);
  return isInputError(thrown) ? { error, inputError: thrown.message } : { error };
}

/**
 * errorFromWorker(failure, context) rebuilds the error to throw in the parent: an
 * InputError with the worker's message when the worker's error was one (an Error
 * crossing threads loses its class, and bad input must still exit 2), otherwise an
 * internal Error saying which job failed, with the worker's stack. O(1).
 */
export function errorFromWorker(failure: WorkerFailure, context: string): Error {
  if (failure.inputError !== undefined) return new InputError(failure.inputError);
  return new Error(`${context}: ${failure.error}`);
}

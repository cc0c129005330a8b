import { InputError, isInputError } from './errors.js';

/** What a worker thread sends back when a job throws: plain data, since an Error loses its class across threads. */
export interface ThreadFailure {
  /** The message of what was thrown. */
  readonly message: string;
  /** The stack (or text) of what was thrown. */
  readonly stack: string;
  /** True when what was thrown was an InputError (bad input, exit 2). */
  readonly inputError: boolean;
}

/** encodeFailure(thrown) turns what a worker caught into a ThreadFailure for its parent. O(1). */
export function encodeFailure(thrown: unknown): ThreadFailure {
  return {
    message: (thrown as Error)?.message ?? String(thrown),
    stack: (thrown as Error)?.stack ?? String(thrown),
    inputError: isInputError(thrown),
  };
}

/**
 * decodeFailure(failure, context) rebuilds the error to throw in the parent: an
 * InputError with the worker's message when the worker's error was one (bad input must
 * still exit 2), otherwise an internal Error that starts with `context` (which job
 * failed) and carries the worker's stack. O(1).
 */
export function decodeFailure(failure: ThreadFailure, context: string): Error {
  if (failure.inputError) return new InputError(failure.message);
  return new Error(`${context}: ${failure.stack}`);
}

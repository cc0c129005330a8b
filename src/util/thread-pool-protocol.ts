import type { ThreadFailure } from './thread-failure.js';

/**
 * A message from a ThreadPool to one of its workers: a job to answer (its id comes back
 * with the answer), a notice to take in without answering (a plan to keep, a plan to
 * forget), or the request to exit once the messages before it are handled. A worker
 * handles its messages one at a time, in the order they came.
 */
export type ThreadPoolMessage<Request, Notice> =
  | { readonly type: 'job'; readonly id: number; readonly request: Request }
  | { readonly type: 'notice'; readonly notice: Notice }
  | { readonly type: 'exit' };

/**
 * A worker's answer to job `id`: its result, or the failure that stopped it (decodeFailure
 * rebuilds the error), or a progress report sent while the job runs (any number, before
 * the result; the job's ThreadJobOptions.onProgress gets each).
 */
export type ThreadPoolAnswer<Result> =
  | { readonly id: number; readonly result: Result }
  | { readonly id: number; readonly failure: ThreadFailure }
  | { readonly id: number; readonly progress: unknown };

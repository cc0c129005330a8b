import { parentPort } from 'node:worker_threads';
import { encodeFailure } from './thread-failure.js';
import type { ThreadPoolAnswer, ThreadPoolMessage } from './thread-pool-protocol.js';

/** What a worker does with its messages. */
export interface ThreadPoolService<Request, Result, Notice> {
  /**
   * Answers one job; what it throws goes back through encodeFailure. `report(progress)`
   * sends a progress report of this job to the pool (its job's onProgress), structured-cloned.
   */
  readonly handle: (request: Request, report: (progress: unknown) => void) => Result | Promise<Result>;
  /** Takes in a notice (ThreadPool.notify); what it throws is an internal failure of the worker. */
  readonly notice?: (notice: Notice) => void;
  /** The buffers of a result to transfer rather than clone (default none). */
  readonly transfer?: (result: Result) => ArrayBuffer[];
}

/**
 * serveThreadPool(service) is the entry of a ThreadPool's worker thread: it answers the
 * pool's jobs with service.handle one at a time, in the order they came (an async handle
 * finishes before the next message is taken), and posts back each result, or the failure
 * it threw encoded by encodeFailure (an InputError stays one in the parent); on the pool's
 * exit message it closes its port, so the thread ends when its last work has. Does nothing
 * outside a worker thread.
 */
export function serveThreadPool<Request, Result, Notice = never>(
  service: ThreadPoolService<Request, Result, Notice>,
): void {
  const port = parentPort;
  if (port === null) return;
  const answer = async (message: Exclude<ThreadPoolMessage<Request, Notice>, { type: 'exit' }>): Promise<void> => {
    if (message.type === 'notice') {
      try {
        service.notice?.(message.notice);
      } catch (error) {
        // An internal failure of the worker: thrown outside the queue, it stops the worker and breaks the pool.
        setImmediate(() => {
          throw error;
        });
      }
      return;
    }
    try {
      const report = (progress: unknown) =>
        port.postMessage({ id: message.id, progress } satisfies ThreadPoolAnswer<Result>);
      const result = await service.handle(message.request, report);
      port.postMessage({ id: message.id, result } satisfies ThreadPoolAnswer<Result>, service.transfer?.(result) ?? []);
    } catch (error) {
      port.postMessage({ id: message.id, failure: encodeFailure(error) } satisfies ThreadPoolAnswer<Result>);
    }
  };
  let queue: Promise<void> = Promise.resolve();
  port.on('message', (message: ThreadPoolMessage<Request, Notice>) => {
    // Closing the port ends the event loop, so the thread exits as a finished one does (ThreadPool.close).
    queue = queue.then(() => (message.type === 'exit' ? port.close() : answer(message)));
  });
}

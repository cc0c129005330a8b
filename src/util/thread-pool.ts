import { Worker } from 'node:worker_threads';
import { decodeFailure } from './thread-failure.js';
import type { ThreadPoolAnswer, ThreadPoolMessage } from './thread-pool-protocol.js';

/** How a ThreadPool starts its workers. */
export interface ThreadPoolOptions {
  /** Worker threads to start (at least 1). */
  readonly size: number;
  /** What every worker is started with (its workerData), cloned once per worker. */
  readonly workerData?: unknown;
  /** Jobs in flight per worker (default 1); 2 keeps a worker's next job waiting in it, so it never waits for a round
   * trip. */
  readonly depth?: number;
  /** What the workers are, for error messages ("calibration worker"); default "worker". */
  readonly name?: string;
}

/** What one job needs besides its request. */
export interface ThreadJobOptions {
  /** Starts the message of an internal failure of this job (default: "<name> failed"). */
  readonly context?: string;
  /** Called with each progress report the worker sends for this job (serveThreadPool's report), in order. */
  readonly onProgress?: (progress: unknown) => void;
}

interface Job<Request, Result> {
  readonly request: Request | ((worker: number) => Request);
  readonly context: string | undefined;
  readonly onProgress: ((progress: unknown) => void) | undefined;
  readonly resolve: (result: Result) => void;
  readonly reject: (error: Error) => void;
}

interface PoolWorker<Request, Result> {
  readonly worker: Worker;
  readonly index: number;
  /** Jobs sent and not yet answered, by id. */
  readonly pending: Map<number, Job<Request, Result>>;
}

/**
 * The one pool of worker threads of the house. Jobs wait in one queue, first in first out;
 * each is sent to the worker with the fewest jobs in flight (the first such) while that
 * worker has fewer than `depth`, and the next queued job goes out as an answer comes back.
 * The worker (serveThreadPool) answers its jobs in arrival order, and may send progress
 * reports of a job before its answer (the job's onProgress gets them); a job that throws comes
 * back through one failure codec (encodeFailure/decodeFailure): an InputError as an
 * InputError, anything else as an Error with the worker's stack. A worker that dies (an
 * uncaught error, an exit) breaks the pool: every job in flight or queued, and every later
 * one, rejects with what killed it. close() stops the workers; jobs not yet answered reject.
 */
export class ThreadPool<Request, Result, Notice = never> {
  readonly size: number;
  readonly depth: number;
  private readonly name: string;
  private readonly workers: Array<PoolWorker<Request, Result>> = [];
  private readonly queue: Array<Job<Request, Result>> = [];
  private nextId = 0;
  /** Why the pool takes no more jobs (closed, or a worker died), once it does not. */
  private stopped: Error | undefined;

  /**
   * @param file the compiled worker module (an absolute path) whose entry calls serveThreadPool
   * @param options how many workers, their workerData, jobs in flight per worker, their name
   */
  constructor(file: string, options: ThreadPoolOptions) {
    this.size = Math.max(1, Math.floor(options.size));
    this.depth = Math.max(1, Math.floor(options.depth ?? 1));
    this.name = options.name ?? 'worker';
    for (let index = 0; index < this.size; index++) {
      const worker = new Worker(file, { workerData: options.workerData });
      const entry: PoolWorker<Request, Result> = { worker, index, pending: new Map() };
      worker.on('message', (answer: ThreadPoolAnswer<Result>) => this.answered(entry, answer));
      worker.on('error', (error) => this.broken(error));
      worker.on('exit', (code) => this.broken(new Error(`${this.name} exited with code ${code}`)));
      this.workers.push(entry);
    }
  }

  /**
   * run(request, options) queues one job and resolves with the worker's result. `request`
   * may be a function of the index of the worker it goes to (0 to size - 1), called when
   * it is sent: a request can then leave out what that worker already holds. Rejects with
   * the job's error (decodeFailure), or the pool's when it stopped.
   */
  run(request: Request | ((worker: number) => Request), options: ThreadJobOptions = {}): Promise<Result> {
    if (this.stopped !== undefined) return Promise.reject(this.stopped);
    return new Promise((resolve, reject) => {
      this.queue.push({ request, context: options.context, onProgress: options.onProgress, resolve, reject });
      this.dispatch();
    });
  }

  /** notify(notice) posts a notice to every worker now (ahead of jobs queued after it); no answer comes back. */
  notify(notice: Notice): void {
    if (this.stopped !== undefined) return;
    for (const entry of this.workers)
      entry.worker.postMessage({ type: 'notice', notice } satisfies ThreadPoolMessage<Request, Notice>);
  }

  /**
   * close() stops every worker; a job not yet answered rejects. Resolves when all have
   * stopped. A pool with every job answered asks its workers to exit and waits for them
   * (terminating one only if it has not exited within CLOSE_GRACE_MS): a thread that ends
   * on its own first waits for its isolate's background compiler jobs, whereas terminate()
   * tears the isolate down under a running one, which at times aborts Node.js 20
   * (NodePlatform::ForIsolate's assertion). A pool with work in flight (a failure, an
   * interruption) terminates its workers at once.
   */
  async close(): Promise<void> {
    const answered =
      this.stopped === undefined && this.queue.length === 0 && this.workers.every((entry) => entry.pending.size === 0);
    this.stop(new Error(`${this.name}: the thread pool was closed before the job was answered`));
    await Promise.all(this.workers.map((entry) => (answered ? exitWhenDone(entry.worker) : entry.worker.terminate())));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      let chosen: PoolWorker<Request, Result> | undefined;
      for (const entry of this.workers)
        if (entry.pending.size < this.depth && (chosen === undefined || entry.pending.size < chosen.pending.size))
          chosen = entry;
      if (chosen === undefined) return;
      const job = this.queue.shift() as Job<Request, Result>;
      const id = this.nextId++;
      chosen.pending.set(id, job);
      const request =
        typeof job.request === 'function'
          ? (job.request as (worker: number) => Request)(chosen.index)
          : (job.request as Request);
      chosen.worker.postMessage({ type: 'job', id, request } satisfies ThreadPoolMessage<Request, Notice>);
    }
  }

  private answered(entry: PoolWorker<Request, Result>, answer: ThreadPoolAnswer<Result>): void {
    const job = entry.pending.get(answer.id);
    if (job === undefined) return;
    if ('progress' in answer) {
      job.onProgress?.(answer.progress);
      return;
    }
    entry.pending.delete(answer.id);
    if ('result' in answer) job.resolve(answer.result);
    else job.reject(decodeFailure(answer.failure, job.context ?? `${this.name} failed`));
    this.dispatch();
  }

  private broken(error: Error): void {
    if (this.stopped !== undefined) return;
    this.stop(error);
    for (const entry of this.workers) void entry.worker.terminate();
  }

  private stop(error: Error): void {
    if (this.stopped !== undefined) return;
    this.stopped = error;
    const waiting = [...this.queue.splice(0), ...this.workers.flatMap((entry) => [...entry.pending.values()])];
    for (const entry of this.workers) entry.pending.clear();
    for (const job of waiting) job.reject(error);
  }
}

/** How long close() waits for an idle worker to exit on its own before it terminates it. */
const CLOSE_GRACE_MS = 5000;

/** Asks a worker to exit once done and resolves when it has (terminated after CLOSE_GRACE_MS). */
function exitWhenDone(worker: Worker): Promise<unknown> {
  if (worker.threadId === -1) return Promise.resolve(); // exited already
  return new Promise((resolve) => {
    const timer = setTimeout(() => void worker.terminate(), CLOSE_GRACE_MS);
    worker.once('exit', () => {
      clearTimeout(timer);
      resolve(undefined);
    });
    worker.postMessage({ type: 'exit' } satisfies ThreadPoolMessage<never, never>);
  });
}

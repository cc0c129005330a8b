import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../../src/util/errors.js';
import { compiledModule } from '../../src/util/paths.js';
import { ThreadPool } from '../../src/util/thread-pool.js';

// Worker threads run plain JavaScript: this test's worker is a small module over the compiled
// serveThreadPool (the vitest global setup, test/setup/build.ts, builds dist/ when it is stale).
interface Job {
  value: number;
  wait?: number;
  fail?: 'input' | 'type';
  exit?: number;
  steps?: number;
}
interface Answer {
  value: number;
  handled: number[];
  told: string[];
  tag: string | undefined;
}

const folder = mkdtempSync(join(tmpdir(), 'fairaudit-thread-pool-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const workerFile = join(folder, 'echo-worker.mjs');
writeFileSync(
  workerFile,
  `import { writeFileSync } from 'node:fs';
import { threadId, workerData } from 'node:worker_threads';
import { serveThreadPool } from ${JSON.stringify(pathToFileURL(compiledModule('util/serve-thread-pool.js')).href)};
import { InputError } from ${JSON.stringify(pathToFileURL(compiledModule('util/errors.js')).href)};
const handled = [];
const told = [];
// Runs only when the thread ends on its own (terminate() stops JavaScript at once).
process.on('exit', () => { if (workerData?.marker) writeFileSync(workerData.marker + '-' + threadId, 'exited'); });
serveThreadPool({
  notice: (notice) => told.push(notice),
  handle: async (job, report) => {
    for (let step = 1; step <= (job.steps ?? 0); step++) report({ step, value: job.value });
    if (job.wait) await new Promise((resolve) => setTimeout(resolve, job.wait));
    if (job.fail === 'input') throw new InputError('pool.csv, row ' + job.value + ': expected 0 or 1, found 7');
    if (job.fail === 'type') throw new TypeError('boom ' + job.value);
    if (job.exit !== undefined) process.exit(job.exit);
    handled.push(job.value);
    return { value: job.value * 2, handled: [...handled], told: [...told], tag: workerData?.tag };
  },
});
`,
);

function pool(size: number, depth = 1): ThreadPool<Job, Answer, string> {
  return new ThreadPool<Job, Answer, string>(workerFile, {
    size,
    depth,
    workerData: { tag: 'setup' },
    name: 'echo worker',
  });
}

describe('ThreadPool(file, {size, depth, workerData, name})', () => {
  it('run(job) resolves each job with its own answer, whatever order the workers finish in', async () => {
    const threads = pool(2);
    try {
      const waits = [40, 0, 25, 5, 0, 10];
      const answers = await Promise.all(waits.map((wait, value) => threads.run({ value, wait })));
      expect(answers.map((answer) => answer.value)).toEqual([0, 2, 4, 6, 8, 10]);
      expect(answers.every((answer) => answer.tag === 'setup')).toBe(true);
    } finally {
      await threads.close();
    }
  });

  it('run(job, {onProgress}) gets the reports the worker sends for that job, in order, before its answer', async () => {
    const threads = pool(2);
    try {
      const seen: Record<number, unknown[]> = { 1: [], 2: [] };
      const answers = await Promise.all(
        [1, 2].map((value) =>
          threads.run({ value, steps: value + 1 }, { onProgress: (report) => seen[value].push(report) }),
        ),
      );
      expect(answers.map((answer) => answer.value)).toEqual([2, 4]);
      expect(seen[1]).toEqual([
        { step: 1, value: 1 },
        { step: 2, value: 1 },
      ]);
      expect(seen[2]).toEqual([1, 2, 3].map((step) => ({ step, value: 2 })));
    } finally {
      await threads.close();
    }
  });

  it('one worker answers its jobs first in, first out, in one queue', async () => {
    const threads = pool(1, 2);
    try {
      const answers = await Promise.all([3, 1, 4, 1, 5].map((value) => threads.run({ value, wait: 5 * value })));
      expect(answers.at(-1)?.handled).toEqual([3, 1, 4, 1, 5]);
    } finally {
      await threads.close();
    }
  });

  it('run(worker => job) builds the request for the worker it goes to, the least busy first', async () => {
    const threads = pool(2);
    try {
      const workers: number[] = [];
      const jobs = [0, 1].map((value) =>
        threads.run((worker) => {
          workers.push(worker);
          return { value, wait: 20 };
        }),
      );
      await Promise.all(jobs);
      expect(workers).toEqual([0, 1]);
    } finally {
      await threads.close();
    }
  });

  it('notify(notice) reaches every worker ahead of the jobs queued after it', async () => {
    const threads = pool(2);
    try {
      threads.notify('plan 7');
      const answers = await Promise.all([0, 1].map((value) => threads.run({ value, wait: 20 })));
      expect(answers.map((answer) => answer.told)).toEqual([['plan 7'], ['plan 7']]);
    } finally {
      await threads.close();
    }
  });

  it('a job that throws rejects alone; the other jobs and later ones are answered', async () => {
    const threads = pool(2);
    try {
      const outcomes = await Promise.allSettled([
        threads.run({ value: 1 }),
        threads.run({ value: 2, fail: 'type' }),
        threads.run({ value: 3 }),
      ]);
      expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      const error = (outcomes[1] as PromiseRejectedResult).reason as Error;
      expect(error).not.toBeInstanceOf(InputError);
      expect(error.message).toMatch(/^echo worker failed: TypeError: boom 2\n\s+at /);
      expect((await threads.run({ value: 4 })).value).toBe(8);
    } finally {
      await threads.close();
    }
  });

  it(
    "a worker's InputError comes back as an InputError with its message; a job's context starts other " + 'failures',
    async () => {
      const threads = pool(1);
      try {
        const bad = threads.run({ value: 12, fail: 'input' });
        await expect(bad).rejects.toBeInstanceOf(InputError);
        await expect(bad).rejects.toThrow(/^pool\.csv, row 12: expected 0 or 1, found 7$/);
        await expect(threads.run({ value: 5, fail: 'type' }, { context: 'echo of row 5' })).rejects.toThrow(
          /^echo of row 5: TypeError: boom 5/,
        );
      } finally {
        await threads.close();
      }
    },
  );

  it('a worker that exits breaks the pool: the jobs in flight, queued and later all reject with why', async () => {
    const threads = pool(1);
    try {
      const settled = Promise.allSettled([threads.run({ value: 1, exit: 3 }), threads.run({ value: 2 })]);
      const reasons = (await settled).map((outcome) => (outcome as PromiseRejectedResult).reason?.message);
      expect(reasons).toEqual(['echo worker exited with code 3', 'echo worker exited with code 3']);
      await expect(threads.run({ value: 3 })).rejects.toThrow('echo worker exited with code 3');
    } finally {
      await threads.close();
    }
  });

  it('close() with every job answered lets each worker finish and exit on its own', async () => {
    const marker = join(folder, 'exited');
    const threads = new ThreadPool<Job, Answer, string>(workerFile, { size: 2, workerData: { marker } });
    await Promise.all([threads.run({ value: 1 }), threads.run({ value: 2 })]);
    await threads.close();
    const exited = readdirSync(folder).filter((name) => name.startsWith('exited-'));
    expect(exited).toHaveLength(2);
    await expect(threads.run({ value: 3 })).rejects.toThrow('the thread pool was closed');
  });

  it('close() stops the workers; a job not yet answered and any later one reject', async () => {
    const threads = pool(1);
    const settled = Promise.allSettled([threads.run({ value: 1, wait: 10_000 }), threads.run({ value: 2 })]);
    await threads.close();
    const reasons = (await settled).map((outcome) => (outcome as PromiseRejectedResult).reason?.message);
    const closed = 'echo worker: the thread pool was closed before the job was answered';
    expect(reasons).toEqual([closed, closed]);
    await expect(threads.run({ value: 3 })).rejects.toThrow('the thread pool was closed');
  });
});

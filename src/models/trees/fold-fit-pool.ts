import { Worker } from 'node:worker_threads';
import { compiledModule } from '../../util/paths.js';
import type { FeatureMatrix, GradientBoostingSettings } from './gradient-boosting.js';
import type { FoldFit, FoldFitRunner } from './random-search.js';
import { errorFromWorker, type WorkerFailure } from '../worker-failure.js';

/**
 * foldFitPool(data, label, base, seed, threads) returns a FoldFitRunner that spreads a
 * search's fold fits over `threads` worker threads (each holding one copy of the
 * data; they load the compiled dist/ code), handing the next fit to whichever worker
 * is free. Results equal the single-thread ones: each fit's random source derives
 * from (seed, draw, fold) only.
 */
export function foldFitPool(
  data: FeatureMatrix,
  label: Uint8Array,
  base: GradientBoostingSettings,
  seed: string,
  threads: number,
): FoldFitRunner {
  return (fits, onDone) =>
    new Promise((resolve, reject) => {
      const file = compiledModule('models/trees/fold-fit-worker.js');
      const results: Array<{ accuracy: number; iterations: number }> = new Array(fits.length);
      const workers: Worker[] = [];
      let next = 0;
      let finished = 0;
      let failed = false;
      const stop = () => Promise.all(workers.map((worker) => worker.terminate()));
      const feed = (worker: Worker) => {
        if (next >= fits.length) return;
        const index = next++;
        const fit: FoldFit = fits[index];
        worker.postMessage({ index, fit });
      };
      const workerData = { features: data.features, columns: data.columns, label, base, seed };
      for (let k = 0; k < Math.min(threads, fits.length); k++) {
        const worker = new Worker(file, { workerData });
        workers.push(worker);
        worker.on(
          'message',
          (reply: { index: number; accuracy?: number; iterations?: number } & Partial<WorkerFailure>) => {
            if (failed) return;
            if (reply.error !== undefined) {
              failed = true;
              void stop();
              reject(errorFromWorker({ error: reply.error, inputError: reply.inputError }, 'fold-fit worker failed'));
              return;
            }
            results[reply.index] = { accuracy: reply.accuracy as number, iterations: reply.iterations as number };
            onDone();
            if (++finished === fits.length) {
              void stop().then(() => resolve(results));
              return;
            }
            feed(worker);
          },
        );
        worker.on('error', (error) => {
          if (failed) return;
          failed = true;
          void stop();
          reject(error);
        });
        feed(worker);
      }
      if (fits.length === 0) resolve([]);
    });
}

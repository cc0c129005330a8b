import { compiledModule } from '../../util/paths.js';
import { ThreadPool } from '../../util/thread-pool.js';
import type { FeatureMatrix, GradientBoostingSettings } from './gradient-boosting.js';
import type { FoldFit, FoldFitRunner } from './random-search.js';

/** What scoreFoldFit gives for one fold fit. */
type FoldFitScore = { accuracy: number; iterations: number };

/**
 * foldFitPool(data, label, base, seed, threads) returns a FoldFitRunner that spreads a
 * search's fold fits over `threads` worker threads (a ThreadPool started per search, each
 * worker holding one copy of the data; they load the compiled dist/ code), handing the
 * next fit to whichever worker is free. Results equal the single-thread ones: each fit's
 * random source derives from (seed, draw, fold) only. The first failure rejects and stops
 * the workers.
 */
export function foldFitPool(
  data: FeatureMatrix,
  label: Uint8Array,
  base: GradientBoostingSettings,
  seed: string,
  threads: number,
): FoldFitRunner {
  return async (fits, onDone) => {
    if (fits.length === 0) return [];
    const workerData = { features: data.features, columns: data.columns, label, base, seed };
    const pool = new ThreadPool<FoldFit, FoldFitScore>(compiledModule('models/trees/fold-fit-worker.js'), {
      size: Math.min(threads, fits.length),
      workerData,
      name: 'fold-fit worker',
    });
    try {
      return await Promise.all(
        fits.map(async (fit) => {
          const score = await pool.run(fit);
          onDone();
          return score;
        }),
      );
    } finally {
      await pool.close();
    }
  };
}

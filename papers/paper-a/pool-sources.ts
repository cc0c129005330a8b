import type { AuditPool } from '../../src/audit/pool.js';
import { CALIBRATED_SYNTHETIC_NOTICE, calibratedPool, type PaperADataset } from './calibrated-pools.js';
import { PAPER_A_POOLS, type PaperAPool } from './pools.js';

/** How a pool of the reproduction was obtained. */
export type PoolOrigin = 'trained-model' | 'calibrated-synthetic';

/** A pool ready to audit, with where it came from (written to pools.json). */
export interface SourcedPool {
  readonly pool: PaperAPool;
  readonly auditPool: AuditPool;
  readonly origin: PoolOrigin;
  /** For calibrated pools: why the real data was not used. */
  readonly reason: string | null;
  /** For calibrated pools: the data loader's whole message, when it gave one. */
  readonly loaderMessage?: string | null;
  /** For trained models: the model card (accuracy, rates, training time, ...). */
  readonly card: Record<string, unknown> | null;
  /** For trained models: whether the model came from the cache. */
  readonly cached: boolean | null;
}

/** What the report needs to know of a pool: its name and where it came from (report-layout.json). */
export interface PoolProvenance {
  readonly name: string;
  readonly origin: PoolOrigin;
  readonly reason: string | null;
  readonly cached: boolean | null;
  /** The pool's Arrow file, when it was written (report-layout.json: relative to the results folder). */
  readonly file?: string;
}

/** poolProvenance(sourced, file?) keeps what the report reads of a sourced pool. O(1). */
export function poolProvenance(sourced: SourcedPool, file?: string): PoolProvenance {
  return {
    name: sourced.pool.name,
    origin: sourced.origin,
    reason: sourced.reason,
    cached: sourced.cached,
    ...(file ? { file } : {}),
  };
}

/** A dataset's real pools, or the reason they could not be made. */
export type DatasetPools =
  | { readonly available: true; readonly pools: readonly SourcedPool[] }
  | { readonly available: false; readonly reason: string };

/**
 * Trains (or reuses from the cache) one dataset's four models and returns their pools.
 * Injected so the pipeline does not depend on how models are trained or cached.
 */
export type TrainedPoolsProvider = (dataset: PaperADataset) => Promise<DatasetPools>;

/**
 * calibratedPools(dataset, reason) returns the four calibrated synthetic pools of a
 * dataset (src/data/calibrated-pools.ts), each tagged with the reason the real data
 * was not used (and the data loader's whole message, if any). O(pool size) each.
 */
export function calibratedPools(
  dataset: PaperADataset,
  reason: string,
  loaderMessage: string | null = null,
): SourcedPool[] {
  return PAPER_A_POOLS.filter((pool) => pool.dataset === dataset).map((pool) => ({
    pool,
    auditPool: calibratedPool(pool.dataset, pool.model),
    origin: 'calibrated-synthetic' as const,
    reason: `${reason} ${CALIBRATED_SYNTHETIC_NOTICE}`,
    loaderMessage,
    card: null,
    cached: null,
  }));
}

/** Where each trained pool's model came from (cache or training), for run.json's provenance. */
export function cacheNotes(pools: readonly SourcedPool[]): Record<string, string> {
  return Object.fromEntries(
    pools
      .filter((entry) => entry.cached !== null)
      .map((entry) => [
        `pool ${entry.pool.name}`,
        entry.cached ? 'trained model, cached' : 'trained model, trained now',
      ]),
  );
}

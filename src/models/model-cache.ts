import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readPoolFile, writePoolFile } from '../audit/pool-io.js';
import type { AuditPool } from '../audit/pool.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import type { ModelCard } from './model-card.js';

/** File names inside one cached model's folder. */
export const CACHE_FILES = { pool: 'pool.arrow', auditPool: 'audit-pool.arrow', card: 'card.json' } as const;

/** A model as stored in (or read from) the cache. */
export interface CachedModel {
  readonly directory: string;
  readonly pool: AuditPool;
  /** Paper B: the audit set's rows of the pool; null otherwise. */
  readonly auditPool: AuditPool | null;
  readonly card: ModelCard;
}

/**
 * readCachedModel(directory) returns the model stored in `directory`, or null when
 * its card or pool is missing (the card is written last, so a folder with a card is
 * complete). O(pool rows).
 */
export function readCachedModel(directory: string): CachedModel | null {
  const cardPath = join(directory, CACHE_FILES.card);
  const poolPath = join(directory, CACHE_FILES.pool);
  if (!existsSync(cardPath) || !existsSync(poolPath)) return null;
  const card = JSON.parse(readFileSync(cardPath, 'utf8')) as ModelCard;
  const auditPath = join(directory, CACHE_FILES.auditPool);
  return {
    directory,
    pool: readPoolFile(poolPath),
    auditPool: existsSync(auditPath) ? readPoolFile(auditPath) : null,
    card,
  };
}

/**
 * writeCachedModel(directory, pool, auditPool, card) stores a trained model: the
 * pools as Arrow IPC files, then the card as JSON (each written atomically; the card
 * last, so readers only see complete entries).
 */
export function writeCachedModel(
  directory: string,
  pool: AuditPool,
  auditPool: AuditPool | null,
  card: ModelCard,
): CachedModel {
  writePoolFile(join(directory, CACHE_FILES.pool), pool);
  if (auditPool !== null) writePoolFile(join(directory, CACHE_FILES.auditPool), auditPool);
  writeFileAtomic(join(directory, CACHE_FILES.card), `${JSON.stringify(card, null, 2)}\n`);
  return { directory, pool, auditPool, card };
}

import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { AuditPool } from '../audit/pool.js';
import { readPoolFile, writePoolFile } from '../audit/pool-io.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { isInputError } from '../util/errors.js';
import { type ModelCard, poolFigures } from './model-card.js';

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

/** The SHA-256 of a file's bytes. */
function fileChecksum(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/** card.json as stored: the card and the SHA-256 of each pool file beside it. */
type StoredCard = ModelCard & { checksums?: Record<string, unknown> };

/**
 * Reads and checks a complete cache entry, or says why it cannot be used: card.json not
 * JSON (truncated), a pool file whose SHA-256 is not the one the card records (a flipped
 * byte), no checksums (an older entry), or a pool whose SP and EO gaps or row count are
 * not the card's (poolFigures recomputed).
 */
function checkedModel(directory: string, cardPath: string, poolPath: string): CachedModel | { problem: string } {
  let stored: StoredCard;
  try {
    stored = JSON.parse(readFileSync(cardPath, 'utf8')) as StoredCard;
    if (typeof stored !== 'object' || stored === null) throw new Error('not an object');
  } catch {
    return { problem: `${CACHE_FILES.card} is not a whole model card (truncated or damaged)` };
  }
  const { checksums, ...card } = stored;
  if (typeof checksums !== 'object' || checksums === null)
    return { problem: `${CACHE_FILES.card} records no checksums` };
  const auditPath = join(directory, CACHE_FILES.auditPool);
  const files = [poolPath, ...(existsSync(auditPath) || checksums[CACHE_FILES.auditPool] ? [auditPath] : [])];
  for (const path of files) {
    const name = basename(path);
    if (!existsSync(path) || checksums[name] !== fileChecksum(path))
      return { problem: `${name} does not have the SHA-256 ${CACHE_FILES.card} records (changed or damaged)` };
  }
  let pool: AuditPool;
  let auditPool: AuditPool | null;
  // A cached model names its pools as a freshly trained one does (model:DATASET/MODEL), not by the cache file's
  // path, so outputs do not depend on whether the model was trained or read, nor on where the cache is.
  const source = `model:${card.dataset}/${card.model}`;
  try {
    pool = { ...readPoolFile(poolPath), source };
    auditPool = files.length > 1 ? { ...readPoolFile(auditPath), source: `${source}/audit` } : null;
  } catch (error) {
    if (isInputError(error)) return { problem: error.message };
    throw error;
  }
  const figures = poolFigures(pool);
  const same = (x: number, y: number) => x === y || (Number.isNaN(x) && Number.isNaN(y)) || Math.abs(x - y) <= 1e-12;
  if (
    figures.poolRows !== card.poolRows ||
    !same(figures.statisticalParityGap, card.statisticalParityGap) ||
    !same(figures.equalOpportunityGap, card.equalOpportunityGap)
  )
    return {
      problem:
        `${CACHE_FILES.pool} gives ${figures.poolRows} rows, SP gap ${figures.statisticalParityGap} and ` +
        `EO gap ${figures.equalOpportunityGap}, not the ` +
        `card's ${card.poolRows}, ${card.statisticalParityGap} and ${card.equalOpportunityGap}`,
    };
  return { directory, pool, auditPool, card };
}

/**
 * readCachedModel(directory, onNotice) returns the model stored in `directory`, or null
 * when its card or pool is missing (the card is written last, so a folder with a card is
 * complete) or the entry fails its checks (checksums of the pool files, the pool's gaps
 * against the card's, a card that is not whole): then onNotice gets one line saying why,
 * and the caller trains the model again. O(pool rows).
 */
export function readCachedModel(directory: string, onNotice?: (notice: string) => void): CachedModel | null {
  const cardPath = join(directory, CACHE_FILES.card);
  const poolPath = join(directory, CACHE_FILES.pool);
  if (!existsSync(cardPath) || !existsSync(poolPath)) return null;
  const checked = checkedModel(directory, cardPath, poolPath);
  if ('problem' in checked) {
    onNotice?.(`${directory}: ${checked.problem}; training the model again`);
    return null;
  }
  return checked;
}

/**
 * writeCachedModel(directory, pool, auditPool, card) stores a trained model: the
 * pools as Arrow IPC files, then the card as JSON with the pools' SHA-256 (each written
 * atomically; the card last, so readers only see complete entries).
 */
export function writeCachedModel(
  directory: string,
  pool: AuditPool,
  auditPool: AuditPool | null,
  card: ModelCard,
): CachedModel {
  const poolPath = join(directory, CACHE_FILES.pool);
  const auditPath = join(directory, CACHE_FILES.auditPool);
  writePoolFile(poolPath, pool);
  if (auditPool !== null) writePoolFile(auditPath, auditPool);
  const checksums: Record<string, string> = { [CACHE_FILES.pool]: fileChecksum(poolPath) };
  if (auditPool !== null) checksums[CACHE_FILES.auditPool] = fileChecksum(auditPath);
  writeFileAtomic(join(directory, CACHE_FILES.card), `${JSON.stringify({ ...card, checksums }, null, 2)}\n`);
  return { directory, pool, auditPool, card };
}

import { isAbsolute, resolve } from 'node:path';
import type { AccessRegime } from '../audit/access-regime.js';
import type { AuditPool } from '../audit/pool.js';
import { poolColumnsProperties } from '../audit/pool-columns.js';
import { canonicalJson } from '../util/canonical-json.js';
import { type Infer, schema } from '../util/schema.js';
import { generateSyntheticPool, syntheticPoolSchema } from './synthetic-pool.js';

/**
 * Where an experiment's audit pool comes from: a pool file or a synthetic recipe (the
 * `pool` setting of the sequential-audit and operating-characteristic kinds; one schema,
 * one loader).
 */
export const poolSourceSchema = schema.object(
  {
    name: schema.optional(
      schema.string({
        pattern: /^[A-Za-z0-9][A-Za-z0-9._-]*$/,
        patternText: 'letters, digits, ".", "_" and "-"',
        description:
          'A short name for the pool, used as its label in results (the `pool` column when the grid varies it).',
      }),
    ),
    file: schema.optional(
      schema.string({
        description: "An Arrow IPC or CSV pool file; a relative path is resolved against the config file's folder.",
      }),
    ),
    synthetic: schema.optional(syntheticPoolSchema),
    ...poolColumnsProperties,
  },
  {
    description:
      "The audit pool: exactly one of `file` or `synthetic`; a file's own column names and group a's value " +
      'through groupColumn, groupA, labelColumn, decisionColumn, scoreColumn, logitColumn; intersectional groups ' +
      'through groups; small groups excluded by minGroupSize or minGroupShare.',
    exactlyOneOf: ['file', 'synthetic'],
    check: (value) => {
      const mapped = Object.keys(poolColumnsProperties).find((key) => value[key] !== undefined);
      return mapped !== undefined && value.synthetic !== undefined
        ? {
            key: mapped,
            expected: 'a column mapping only with file (a synthetic pool has the canonical columns)',
            found: value[mapped],
          }
        : undefined;
    },
  },
);

export type PoolSource = Infer<typeof poolSourceSchema>;

/** Where a config's relative paths are resolved and how it is named in messages (a kind's SettingsOrigin). */
export interface PoolOrigin {
  readonly configFile: string;
  readonly baseDirectory: string;
}

/**
 * Pools already loaded or generated in this thread, by source, folder and (for a file) access
 * regime: the cells of a grid that differ only in metric, tolerance or (for a recipe) access share one pool. A
 * pool is read-only once made, so sharing it is safe.
 */
const poolCache = new Map<string, AuditPool>();

/**
 * loadPoolSource(source, access, origin) returns the pool of a `pool` setting: the
 * synthetic recipe generated (src/data/synthetic-pool.ts), or the file read with the
 * access regime's column required (a relative path against origin.baseDirectory); cached
 * per thread. Throws InputError for a bad file or recipe. O(pool size) the first time.
 */
export async function loadPoolSource(source: PoolSource, access: AccessRegime, origin: PoolOrigin): Promise<AuditPool> {
  // A recipe makes every column whatever the access; a file is read with the access regime's column required.
  const key = canonicalJson({ pool: source, base: origin.baseDirectory, access: source.synthetic ? null : access });
  let pool = poolCache.get(key);
  if (!pool) {
    pool = await readOrGenerate(source, access, origin);
    poolCache.set(key, pool);
  }
  return pool;
}

async function readOrGenerate(source: PoolSource, access: AccessRegime, origin: PoolOrigin): Promise<AuditPool> {
  if (source.synthetic) {
    return generateSyntheticPool(
      source.synthetic,
      `${origin.configFile}: settings.pool (synthetic ${source.name ?? canonicalJson(source.synthetic)})`,
    );
  }
  // Imported on demand: the Arrow reader costs a worker ~150 ms of start-up that synthetic pools never need.
  const { readPoolFile } = await import('../audit/pool-io.js');
  const file = source.file as string;
  const path = isAbsolute(file) ? file : resolve(origin.baseDirectory, file);
  const columns = Object.fromEntries(
    Object.keys(poolColumnsProperties)
      .filter((key) => source[key as keyof PoolSource] !== undefined)
      .map((key) => [key, source[key as keyof PoolSource]]),
  );
  return readPoolFile(path, { require: access === 'decision' ? [] : [access], columns });
}

/** poolSourceLabel(key, value): the label of a `pool` grid value, its name (KindRunner.labelOf). */
export function poolSourceLabel(key: string, value: unknown): string | undefined {
  if (key === 'pool' && typeof value === 'object' && value !== null && 'name' in value) {
    return String((value as { name: unknown }).name);
  }
  return undefined;
}

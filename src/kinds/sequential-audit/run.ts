import { isAbsolute, resolve } from 'node:path';
import type { AuditPool } from '../../audit/pool.js';
import { oracleDecision, type PreparedAudit, prepareAudit } from '../../audit/prepare-audit.js';
import { runSequentialAudit } from '../../audit/sequential-audit.js';
import { generateSyntheticPool, syntheticPoolSchema } from '../../data/synthetic-pool.js';
import { auditSettingsProblem, auditSettingsProperties } from '../../audit/audit-settings.js';
import type { Random } from '../../util/random.js';
import { canonicalJson } from '../../util/canonical-json.js';
import type { KindRunner, OutcomeColumn, SettingsOrigin } from '../../harness/kind-runner.js';
import { type Infer, schema } from '../../util/schema.js';

const poolSchema = schema.object(
  {
    name: schema.optional(
      schema.string({
        pattern: /^[A-Za-z0-9][A-Za-z0-9._-]*$/,
        patternText: 'letters, digits, ".", "_" and "-"',
        description: 'A short name for the pool, used as its label in results (the `pool` column when the grid varies it).',
      }),
    ),
    file: schema.optional(
      schema.string({ description: 'An Arrow IPC or CSV pool file; a relative path is resolved against the config file\'s folder.' }),
    ),
    synthetic: schema.optional(syntheticPoolSchema),
  },
  { description: 'The audit pool: exactly one of `file` or `synthetic`.', exactlyOneOf: ['file', 'synthetic'] },
);

/**
 * The settings of one sequential-audit cell: the pool, then an audit's settings
 * (src/audit/audit-settings.ts, the one vocabulary shared with `fairaudit audit` and
 * auditPool). The schema is the single source of truth.
 */
export const sequentialAuditCellSettings = schema.object(
  { pool: poolSchema, ...auditSettingsProperties },
  { description: 'Settings of a sequential-audit cell.', check: auditSettingsProblem },
);

export type SequentialAuditCellSettings = Infer<typeof sequentialAuditCellSettings>;

const outcomeColumns: readonly OutcomeColumn[] = [
  { name: 'decision', type: 'utf8', description: 'The sequential decision: reject, accept or inconclusive.', values: ['reject', 'accept', 'inconclusive'] },
  { name: 'queries', type: 'int32', description: 'Queries made before stopping.' },
  { name: 'statistic', type: 'float64', description: 'The final signed GLR statistic (positive: evidence of violation).' },
  { name: 'oracle_gap', type: 'float64', description: "The hard-decision gap of the metric's whole pool." },
  { name: 'oracle_decision', type: 'utf8', description: 'reject when oracle_gap > tolerance, else accept.', values: ['reject', 'accept'] },
  {
    name: 'fixed_decision',
    type: 'utf8',
    description:
      "The fixed-sample decision on the first min(B, pool) rows of the replicate's order: their plug-in gap of the observed values against tolerance (decisions), scoreTolerance (scores) or logitTolerance (logits).",
    values: ['reject', 'accept'],
  },
  { name: 'fixed_samples', type: 'int32', description: 'Rows the fixed-sample decision used: min(B, pool size).' },
  { name: 'pool_size', type: 'int32', description: "Size of the metric's pool (all rows for sp, label = 1 rows for eo)." },
  {
    name: 'proxy_gap',
    type: 'float64',
    description: "The group gap of mean scores or logits in the metric's pool (score and logit access), NaN for decision access.",
  },
];

/**
 * Pools already loaded or generated in this thread, by recipe or path: the cells of a
 * grid that differ only in metric, access or tolerance share one pool. A pool is
 * read-only once made, so sharing it is safe.
 */
const poolCache = new Map<string, AuditPool>();

async function loadPool(settings: SequentialAuditCellSettings, origin: SettingsOrigin): Promise<AuditPool> {
  const key = canonicalJson({ pool: settings.pool, base: origin.baseDirectory, access: settings.access });
  let pool = poolCache.get(key);
  if (!pool) {
    pool = await readOrGeneratePool(settings, origin);
    poolCache.set(key, pool);
  }
  return pool;
}

async function readOrGeneratePool(settings: SequentialAuditCellSettings, origin: SettingsOrigin): Promise<AuditPool> {
  const { pool } = settings;
  if (pool.synthetic) {
    return generateSyntheticPool(pool.synthetic, `${origin.configFile}: settings.pool (synthetic ${pool.name ?? canonicalJson(pool.synthetic)})`);
  }
  // Imported on demand: the Arrow reader costs a worker ~150 ms of start-up that synthetic pools never need.
  const { readPoolFile } = await import('../../audit/pool-io.js');
  const file = pool.file as string;
  const path = isAbsolute(file) ? file : resolve(origin.baseDirectory, file);
  const required = settings.access === 'decision' ? [] : [settings.access];
  return readPoolFile(path, { require: required });
}

/**
 * The sequential-audit kind (paper A): each replicate shuffles the metric's pool with
 * its own seed, runs the sequential GLR audit until a threshold is crossed or
 * min(B, pool) queries, and records the fixed-sample decision on the same order.
 */
export const sequentialAuditRunner: KindRunner<SequentialAuditCellSettings, PreparedAudit> = {
  name: 'sequential-audit',
  module: import.meta.url,
  description: 'Sequential GLR fairness audits (paper A) on a pool file or a synthetic pool.',
  settings: sequentialAuditCellSettings,
  outcomeColumns,
  contextKey: (settings) => canonicalJson({ pool: settings.pool, metric: settings.metric, access: settings.access }),
  async prepare(settings, origin) {
    return prepareAudit(await loadPool(settings, origin), settings.metric, settings.access);
  },
  runReplicate(prepared, settings, random: Random) {
    const result = runSequentialAudit(prepared, settings, random);
    return {
      decision: result.decision,
      queries: result.queries,
      statistic: result.statistic,
      oracle_gap: prepared.oracleGap,
      oracle_decision: oracleDecision(prepared, settings.tolerance),
      fixed_decision: result.fixedDecision ?? 'accept',
      fixed_samples: result.fixedSamples,
      pool_size: prepared.size,
      proxy_gap: prepared.proxyGap,
    };
  },
  labelOf: (key, value) => {
    if (key === 'pool' && typeof value === 'object' && value !== null && 'name' in value) {
      return String((value as { name: unknown }).name);
    }
    return undefined;
  },
};

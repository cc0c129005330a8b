import { isAbsolute, resolve } from 'node:path';
import type { AuditPool } from '../../audit/pool.js';
import { oracleDecision, type PreparedAudit, prepareAudit } from '../../audit/prepare-audit.js';
import { runSequentialAudit } from '../../audit/sequential-audit.js';
import { generateSyntheticPool, syntheticPoolProblem } from '../../data/synthetic-pool.js';
import type { Random } from '../../util/random.js';
import { canonicalJson } from '../../util/canonical-json.js';
import type { KindRunner, OutcomeColumn, SettingsOrigin } from '../../harness/kind-runner.js';
import { type Infer, schema } from '../../util/schema.js';

const perGroupRates = (description: string, defaultValue?: number[]) =>
  schema.array(schema.number({ minimum: 0, maximum: 1, description: 'a rate' }), {
    minItems: 2,
    maxItems: 2,
    description,
    ...(defaultValue ? { default: defaultValue } : {}),
  });

/** The recipe of a synthetic pool (src/data/synthetic-pool.ts). */
const syntheticPoolSchema = schema.object(
  {
    size: schema.integer({ minimum: 2, maximum: 50_000_000, default: 20_000, description: 'Number of rows in the pool.' }),
    groupShare: schema.number({
      minimum: 0,
      maximum: 1,
      exclusiveMinimum: true,
      exclusiveMaximum: true,
      default: 0.5,
      description: 'Fraction of the rows in group b (group = 1).',
    }),
    labelRate: perGroupRates('P(label = 1) in group a and in group b.', [0.4, 0.4]),
    decisionRate: perGroupRates('P(decision = 1) in group a and in group b; their difference is the oracle SP gap.'),
    truePositiveRate: schema.optional(
      perGroupRates(
        'P(decision = 1 | label = 1) in group a and in group b; their difference is the oracle EO gap. When absent, decisions are independent of labels within a group.',
      ),
    ),
    logitScale: schema.number({
      minimum: 0,
      exclusiveMinimum: true,
      default: 2,
      description: 'Typical size of |logit|; scores are sigmoid(logit), on the side of 0.5 the decision says.',
    }),
    seed: schema.seed({ default: '1', description: 'Seed of the pool generator: the same recipe always gives the same pool.' }),
  },
  {
    description: 'A pool generated from a recipe (no download needed); counts match the rates exactly up to rounding.',
    check: (value) => syntheticPoolProblem(value as never),
  },
);

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

/** The settings of one sequential-audit cell: its schema is the single source of truth. */
export const sequentialAuditSettings = schema.object(
  {
    pool: poolSchema,
    metric: schema.enumOf(['sp', 'eo'], {
      default: 'sp',
      description: 'Fairness metric: sp audits the whole pool, eo the rows with label = 1.',
    }),
    access: schema.enumOf(['decision', 'score', 'logit'], {
      default: 'decision',
      description:
        'What the auditor observes: decision (Bernoulli GLR on decisions, tolerance δ), score or logit (Gaussian proxy GLR on that column, with its own tolerance).',
    }),
    tolerance: schema.number({
      minimum: 0,
      maximum: 1,
      exclusiveMinimum: true,
      exclusiveMaximum: true,
      default: 0.05,
      description: 'δ: the hard-decision tolerance on the SP or EO gap (decision access, oracle and fixed-sample decisions).',
    }),
    scoreTolerance: schema.number({
      minimum: 0,
      maximum: 1,
      exclusiveMinimum: true,
      exclusiveMaximum: true,
      default: 0.05,
      description: 'Operational tolerance on the group gap of mean scores (score access). Paper A does not state it; the default equals δ.',
    }),
    logitTolerance: schema.number({
      minimum: 0,
      exclusiveMinimum: true,
      default: 0.2,
      description:
        'Operational tolerance on the group gap of mean logits (logit access). Paper A does not state it; the default 4δ = 0.2 is δ mapped through the logistic slope 1/4 at p = 0.5.',
    }),
    budget: schema.integer({
      minimum: 1,
      default: 4000,
      description: 'B: the most queries an audit may make; the cap is min(B, pool size).',
    }),
    alpha: schema.number({
      minimum: 0,
      maximum: 1,
      exclusiveMinimum: true,
      exclusiveMaximum: true,
      default: 0.05,
      description: 'Nominal type I error; the upper threshold is log((1 − β)/α).',
    }),
    beta: schema.number({
      minimum: 0,
      maximum: 1,
      exclusiveMinimum: true,
      exclusiveMaximum: true,
      default: 0.2,
      description: 'Nominal type II error; the lower threshold is log(β/(1 − α)).',
    }),
  },
  {
    description: 'Settings of a sequential-audit cell.',
    check: (value) =>
      (value.alpha as number) + (value.beta as number) >= 1
        ? { key: 'beta', expected: 'alpha + beta < 1 (otherwise the thresholds cross)', found: value.beta }
        : undefined,
  },
);

export type SequentialAuditSettings = Infer<typeof sequentialAuditSettings>;

const outcomeColumns: readonly OutcomeColumn[] = [
  { name: 'decision', type: 'utf8', description: 'The sequential decision: reject, accept or inconclusive.' },
  { name: 'queries', type: 'int32', description: 'Queries made before stopping.' },
  { name: 'statistic', type: 'float64', description: 'The final signed GLR statistic (positive: evidence of violation).' },
  { name: 'oracle_gap', type: 'float64', description: "The hard-decision gap of the metric's whole pool." },
  { name: 'oracle_decision', type: 'utf8', description: 'reject when oracle_gap > tolerance, else accept.' },
  {
    name: 'fixed_decision',
    type: 'utf8',
    description:
      "The fixed-sample decision on the first min(B, pool) rows of the replicate's order: their plug-in gap of the observed values (decisions, scores or logits) against the access regime's tolerance.",
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

async function loadPool(settings: SequentialAuditSettings, origin: SettingsOrigin): Promise<AuditPool> {
  const key = canonicalJson({ pool: settings.pool, base: origin.baseDirectory, access: settings.access });
  let pool = poolCache.get(key);
  if (!pool) {
    pool = await readOrGeneratePool(settings, origin);
    poolCache.set(key, pool);
  }
  return pool;
}

async function readOrGeneratePool(settings: SequentialAuditSettings, origin: SettingsOrigin): Promise<AuditPool> {
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
export const sequentialAuditRunner: KindRunner<SequentialAuditSettings, PreparedAudit> = {
  name: 'sequential-audit',
  module: import.meta.url,
  description: 'Sequential GLR fairness audits (paper A) on a pool file or a synthetic pool.',
  settings: sequentialAuditSettings,
  outcomeColumns,
  contextKey: (settings) => canonicalJson({ pool: settings.pool, metric: settings.metric, access: settings.access }),
  async prepare(settings, origin) {
    return prepareAudit(await loadPool(settings, origin), settings.metric, settings.access);
  },
  runReplicate(prepared, settings, random: Random) {
    const toleranceOfAccess =
      settings.access === 'score' ? settings.scoreTolerance : settings.access === 'logit' ? settings.logitTolerance : settings.tolerance;
    const result = runSequentialAudit(
      prepared,
      { tolerance: toleranceOfAccess, budget: settings.budget, alpha: settings.alpha, beta: settings.beta, order: 'random' },
      random,
    );
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

import type { FixedSampleDecision } from '../stats/fixed-sample-decision.js';
import { waldThresholds } from '../stats/thresholds.js';
import { createRandom, deriveSeed } from '../util/random.js';
import { type Infer, schema, validateInput } from '../util/schema.js';
import type { AccessRegime } from './access-regime.js';
import { auditSettingsProblem, auditSettingsProperties } from './audit-settings.js';
import type { FairnessMetric } from './metric.js';
import type { AuditPool } from './pool.js';
import { oracleDecision, prepareAudit } from './prepare-audit.js';
import { runSequentialAudit, type SequentialAuditResult, type SequentialDecision } from './sequential-audit.js';
import { type AuditSummary, summarizeAudits } from './summarize-audits.js';

/**
 * What auditPool accepts: an audit's settings (auditSettingsSchema: metric, access,
 * tolerance δ, scoreTolerance, logitTolerance, budget, alpha, beta, minimumPerGroup)
 * and how to repeat it: the query order, its seed, the number of replicates and the
 * `early` horizon of the small-sample count.
 */
export const auditPoolSettingsSchema = schema.object(
  {
    ...auditSettingsProperties,
    order: schema.enumOf(['random', 'given'], {
      default: 'random',
      description: "random: a uniform order without replacement, replicate r seeded by deriveSeed(seed, r); given: the pool's order.",
    }),
    seed: schema.optional(schema.seed({ description: 'Seed of the random query order (required with order random).' })),
    replicates: schema.integer({ minimum: 1, default: 1, description: 'Seeded audits to run; more than one gives their summary.' }),
    early: schema.integer({ minimum: 1, default: 10, description: 'With several replicates: also count the decisions taken within this many queries.' }),
  },
  {
    description: 'Settings of auditPool (and of `fairaudit audit`).',
    check: (value) => {
      const levels = auditSettingsProblem(value);
      if (levels) return levels;
      if (value.order === 'random' && value.seed === undefined) {
        return { key: 'seed', expected: 'a seed for the random query order (or order given)', found: undefined };
      }
      if (value.order === 'given' && (value.replicates as number) > 1) {
        return { key: 'replicates', expected: '1 with order given (every replicate would be the same)', found: value.replicates };
      }
      return undefined;
    },
  },
);

export type AuditPoolSettings = Infer<typeof auditPoolSettingsSchema>;

/** What every audit summary says: the settings as applied, the thresholds and the pool's oracle. */
interface AuditPoolCommon {
  readonly metric: FairnessMetric;
  readonly access: AccessRegime;
  /** Rows of the metric's pool and their split by group. */
  readonly poolSize: number;
  readonly groupCounts: { readonly a: number; readonly b: number };
  /** The metric's hard-decision gap on the whole pool (6 decimals), and the oracle's decision against δ. */
  readonly oracleGap: number;
  readonly oracleDecision: FixedSampleDecision;
  /** The score or logit mean gap (score and logit access only). */
  readonly proxyGap?: number;
  /** δ. */
  readonly tolerance: number;
  /** The proxy tolerance of score access (score access only). */
  readonly scoreTolerance?: number;
  /** The proxy tolerance of logit access (logit access only). */
  readonly logitTolerance?: number;
  readonly budget: number;
  readonly alpha: number;
  readonly beta: number;
  readonly minimumPerGroup: number;
  readonly upperThreshold: number;
  readonly lowerThreshold: number;
  readonly order: 'random' | 'given';
  readonly seed?: string;
}

/** One audit: its decision, queries and statistic, and the fixed-sample decision on the same order. */
export interface SingleAuditSummary extends AuditPoolCommon {
  readonly replicates: 1;
  readonly decision: SequentialDecision;
  readonly queries: number;
  /** The final signed GLR; "Infinity" or "-Infinity" as text when infinite (JSON has no infinity). */
  readonly statistic: number | string;
  readonly fixedDecision: FixedSampleDecision | null;
  readonly fixedSamples: number;
  readonly fixedGap: number;
}

/** Several seeded audits: decision counts, the mean and standard deviation of queries, early decisions. */
export interface RepeatedAuditSummary extends AuditPoolCommon {
  readonly replicates: number;
  readonly decisions: AuditSummary['decisions'];
  readonly meanQueries: number;
  readonly stdQueries: number;
  readonly fixedDecisions: AuditSummary['fixedDecisions'];
  readonly earlyDecisions: AuditSummary['earlyDecisions'];
  readonly fixedSamples: number;
}

/** What auditPool returns: the summary `fairaudit audit --json` prints. */
export type AuditPoolSummary = SingleAuditSummary | RepeatedAuditSummary;

function round(value: number, digits = 6): number {
  return Number.isFinite(value) ? Number(value.toFixed(digits)) : value;
}

/** The settings and oracle every summary reports (proxy tolerance and gap for the proxy regime only). */
function commonSummary(settings: AuditPoolSettings, prepared: ReturnType<typeof prepareAudit>): AuditPoolCommon {
  const thresholds = waldThresholds(settings.alpha, settings.beta);
  return {
    metric: settings.metric,
    access: settings.access,
    poolSize: prepared.size,
    groupCounts: { a: prepared.countA, b: prepared.countB },
    oracleGap: round(prepared.oracleGap),
    oracleDecision: oracleDecision(prepared, settings.tolerance),
    ...(prepared.family === 'gaussian' ? { proxyGap: round(prepared.proxyGap) } : {}),
    tolerance: settings.tolerance,
    ...(settings.access === 'score' ? { scoreTolerance: settings.scoreTolerance } : {}),
    ...(settings.access === 'logit' ? { logitTolerance: settings.logitTolerance } : {}),
    budget: settings.budget,
    alpha: settings.alpha,
    beta: settings.beta,
    minimumPerGroup: settings.minimumPerGroup ?? 1,
    upperThreshold: round(thresholds.upper),
    lowerThreshold: round(thresholds.lower),
    order: settings.order,
    ...(settings.seed === undefined ? {} : { seed: settings.seed }),
  };
}

function singleSummary(common: AuditPoolCommon, result: SequentialAuditResult): SingleAuditSummary {
  return {
    ...common,
    replicates: 1,
    decision: result.decision,
    queries: result.queries,
    statistic: Number.isFinite(result.statistic) ? result.statistic : String(result.statistic),
    fixedDecision: result.fixedDecision,
    fixedSamples: result.fixedSamples,
    fixedGap: round(result.fixedGap),
  };
}

function repeatedSummary(common: AuditPoolCommon, results: readonly SequentialAuditResult[], early: number): RepeatedAuditSummary {
  const summary = summarizeAudits(results, early);
  return {
    ...common,
    replicates: summary.replicates,
    decisions: summary.decisions,
    meanQueries: round(summary.meanQueries, 3),
    stdQueries: round(summary.stdQueries, 3),
    fixedDecisions: summary.fixedDecisions,
    earlyDecisions: summary.earlyDecisions,
    fixedSamples: results[0].fixedSamples,
  };
}

/**
 * auditPool(pool, settings, name) audits a pool with paper A's sequential GLR test:
 * it validates the settings once (auditPoolSettingsSchema, defaults filled in; `name`
 * turns a settings key into the words of a message, e.g. a CLI flag), prepares the
 * metric's pool, runs `replicates` seeded audits (replicate r's order from
 * deriveSeed(seed, r), or the pool's order), and returns what `fairaudit audit` prints:
 * the settings as applied, the Wald thresholds, the pool's oracle gap and decision,
 * and either the one audit (decision, queries, statistic, fixed-sample decision) or
 * the replicates' summary. Throws InputError for bad settings, a pool without the
 * access regime's column, or a metric pool missing a group.
 * Running time O(pool size + replicates · min(budget, pool size)).
 */
export function auditPool(
  pool: AuditPool,
  settings: Partial<AuditPoolSettings> = {},
  name: (key: string) => string = (key) => `auditPool: ${key}`,
): AuditPoolSummary {
  const valid = validateInput(settings, auditPoolSettingsSchema, (path) => (path.length === 0 ? name('settings') : name(String(path[0]))));
  const prepared = prepareAudit(pool, valid.metric, valid.access);
  const results: SequentialAuditResult[] = [];
  for (let r = 0; r < valid.replicates; r++) {
    const random = valid.order === 'given' ? null : createRandom(deriveSeed(valid.seed as string, r));
    results.push(runSequentialAudit(prepared, valid, random));
  }
  const common = commonSummary(valid, prepared);
  return valid.replicates === 1 ? singleSummary(common, results[0]) : repeatedSummary(common, results, valid.early);
}

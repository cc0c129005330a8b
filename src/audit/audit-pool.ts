import type { FixedSampleDecision } from '../stats/fixed-sample-decision.js';
import { createRandom, deriveSeed } from '../util/random.js';
import { type Infer, schema, validateInput } from '../util/schema.js';
import type { AccessRegime } from './access-regime.js';
import {
  type CalibrationLookup,
  calibrationOnThreads,
  calibrationOptionsOf,
  calibrationSettingOf,
  type FoundCalibration,
  needsCalibration,
} from './audit-calibration.js';
import type { CalibrationThreadOptions } from './calibrate-on-threads.js';
import { auditSettingsProblem, auditSettingsProperties, auditSettingsSchema } from './audit-settings.js';
import type { TestName } from './audit-test.js';
import { type AuditTest, buildAuditTest } from './build-audit-test.js';
import type { PricePoint } from './calibration-record.js';
import type { FairnessMetric } from './metric.js';
import type { AuditPool } from './pool.js';
import { oracleDecision, prepareAudit } from './prepare-audit.js';
import { runAudit } from './run-audit.js';
import type { SequentialAuditResult, SequentialDecision } from './sequential-audit.js';
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
    order: schema.enumOf(['random', 'balanced', 'given'], {
      default: 'random',
      description:
        "random: a uniform order without replacement, replicate r seeded by deriveSeed(seed, r); balanced: the groups alternate, each in random order; given: the pool's order.",
    }),
    seed: schema.optional(schema.seed({ description: 'Seed of the random query order (required with order random).' })),
    replicates: schema.integer({
      minimum: 1,
      default: 1,
      description: 'Seeded audits to run; more than one gives their summary.',
    }),
    early: schema.integer({
      minimum: 1,
      default: 10,
      description: 'With several replicates: also count the decisions taken within this many queries.',
    }),
  },
  {
    description: 'Settings of auditPool (and of `fairaudit audit`).',
    check: (value) => {
      const levels = auditSettingsProblem(value);
      if (levels) return levels;
      if (value.order !== 'given' && value.seed === undefined) {
        return {
          key: 'seed',
          expected: `a seed for the ${value.order} query order (or order given)`,
          found: undefined,
        };
      }
      if (value.order === 'given' && (value.replicates as number) > 1) {
        return {
          key: 'replicates',
          expected: '1 with order given (every replicate would be the same)',
          found: value.replicates,
        };
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
  /** The start rule in force (startRuleOf: paper A's 1, or 5 for calibrated-glr with scores or logits, unless set). */
  readonly minimumPerGroup: number;
  /** The sequential test that ran (testOf). */
  readonly test: TestName;
  /** The GLR tests' thresholds (Wald's, calibrated or given); absent for the betting and confidence-sequence tests. */
  readonly upperThreshold?: number;
  readonly lowerThreshold?: number;
  /** thresholds calibrated: the calibration used (its cache fingerprint, uncertainty and price). */
  readonly calibration?: {
    readonly fingerprint: string;
    readonly cached: boolean;
    readonly upperInterval: readonly [number | null, number | null];
    readonly lowerInterval: readonly [number | null, number | null];
    readonly price: readonly PricePoint[];
  };
  readonly order: 'random' | 'balanced' | 'given';
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
  /** test confidence-sequence: its 1 - alpha interval for the gap (b minus a) when it stopped, valid at any stopping time. */
  readonly gapInterval?: readonly [number, number];
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
function commonSummary(
  settings: AuditPoolSettings,
  prepared: ReturnType<typeof prepareAudit>,
  auditTest: AuditTest,
): AuditPoolCommon {
  const { thresholds, calibration } = auditTest;
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
    minimumPerGroup: auditTest.minimumPerGroup,
    test: auditTest.name,
    ...(thresholds === null
      ? {}
      : { upperThreshold: round(thresholds.upper), lowerThreshold: round(thresholds.lower) }),
    ...(calibration === null
      ? {}
      : {
          calibration: {
            fingerprint: calibration.record.fingerprint,
            cached: calibration.cached,
            upperInterval: calibration.record.upperInterval,
            lowerInterval: calibration.record.lowerInterval,
            price: calibration.record.price,
          },
        }),
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
    ...(result.gapInterval === undefined
      ? {}
      : { gapInterval: [round(result.gapInterval[0]), round(result.gapInterval[1])] as const }),
  };
}

function repeatedSummary(
  common: AuditPoolCommon,
  results: readonly SequentialAuditResult[],
  early: number,
): RepeatedAuditSummary {
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
 * auditPool(pool, settings, name, lookup) audits a pool with the sequential test its
 * settings select (paper A's GLR with Wald's thresholds by default; `test`,
 * `thresholds`, `order`, `logitBounds`: docs/error-control.md): it validates the settings
 * once (auditPoolSettingsSchema, defaults filled in; `name` turns a settings key into the
 * words of a message, e.g. a CLI flag), prepares the metric's pool, builds the test
 * (buildAuditTest: thresholds calibrated come from the calibration cache of `lookup`, and
 * are computed in this thread when missing), runs `replicates` seeded audits (replicate
 * r's order from deriveSeed(seed, r), or the pool's order), and returns what `fairaudit
 * audit` prints: the settings as applied, the test and its thresholds, the pool's oracle
 * gap and decision, and either the one audit (decision, queries, statistic, fixed-sample
 * decision) or the replicates' summary. Throws InputError for bad settings, a pool
 * without the access regime's column, a metric pool missing a group, or a calibration
 * that cannot meet alpha and beta. Running time O(pool size + replicates · min(budget,
 * pool size)), plus a calibration when one is needed and not cached.
 */
export function auditPool(
  pool: AuditPool,
  settings: Partial<AuditPoolSettings> = {},
  name: (key: string) => string = (key) => `auditPool: ${key}`,
  lookup: CalibrationLookup = {},
): AuditPoolSummary {
  const valid = validateInput(settings, auditPoolSettingsSchema, (path) =>
    path.length === 0 ? name('settings') : name(path.map(String).join('.')),
  );
  const prepared = prepareAudit(pool, valid.metric, valid.access);
  const auditTest = buildAuditTest(prepared, valid, { where: name('thresholds'), ...lookup });
  const results: SequentialAuditResult[] = [];
  for (let r = 0; r < valid.replicates; r++) {
    const random = valid.order === 'given' ? null : createRandom(deriveSeed(valid.seed as string, r));
    results.push(runAudit(prepared, valid, auditTest, valid.order, random));
  }
  const common = commonSummary(valid, prepared, auditTest);
  return valid.replicates === 1 ? singleSummary(common, results[0]) : repeatedSummary(common, results, valid.early);
}

/**
 * calibrateForAuditPool(pool, settings, name, lookup, threadOptions) computes ahead, on
 * worker threads, the calibration auditPool(pool, settings) reads from the cache when its
 * settings call for one (test calibrated-glr with thresholds absent or calibrated;
 * otherwise it resolves with null at once): the audit's settings (auditSettingsSchema:
 * the keys of auditPool's settings that an audit has, so `seed` and `replicates` are not
 * needed) are validated, the metric's pool prepared, and calibrationOnThreads finds the
 * calibration in the cache or computes and saves it. Throws InputError as auditPool does,
 * and when alpha and beta cannot be met (naming the smallest it can). Running time: a
 * calibration on the threads.
 */
export async function calibrateForAuditPool(
  pool: AuditPool,
  settings: Partial<AuditPoolSettings>,
  name: (key: string) => string = (key) => `auditPool: ${key}`,
  lookup: CalibrationLookup = {},
  threadOptions: CalibrationThreadOptions = {},
): Promise<FoundCalibration | null> {
  if (!needsCalibration(settings)) return null;
  const audit = Object.fromEntries(Object.entries(settings).filter(([key]) => key in auditSettingsProperties));
  const valid = validateInput(audit, auditSettingsSchema, (path) =>
    path.length === 0 ? name('settings') : name(path.map(String).join('.')),
  );
  const prepared = prepareAudit(pool, valid.metric, valid.access);
  return calibrationOnThreads(
    calibrationSettingOf(prepared, valid),
    calibrationOptionsOf(valid),
    { where: name('thresholds'), ...lookup },
    threadOptions,
  );
}

import type { FixedSampleDecision } from '../stats/fixed-sample-decision.js';
import { InputError } from '../util/errors.js';
import { createRandom, deriveSeed } from '../util/random.js';
import { type Infer, schema, validateInput } from '../util/schema.js';
import type { AccessRegime } from './access-regime.js';
import {
  auditSettingsProblem,
  auditSettingsProperties,
  auditSettingsSchema,
  toleranceOfAccess,
} from './audit-settings.js';
import { continuationOf, TEST_NAMES, type TestName } from './audit-test.js';
import { guaranteeText, nullHypothesisText, type Verdict, verdictOf, verdictText } from './audit-verdict.js';
import { type AuditTest, buildAuditTest } from './build-audit-test.js';
import {
  type CalibratedAuditSettings,
  type CalibrationLookup,
  calibrationOnThreads,
  calibrationOptionsOf,
  calibrationSettingOf,
  type FoundCalibration,
  needsCalibration,
} from './calibration/audit-calibration.js';
import type { CalibrationThreadOptions } from './calibration/calibrate-on-threads.js';
import type { PricePoint } from './calibration/calibration-record.js';
import { vacuousCalibration } from './calibration/vacuous-calibration.js';
import { type FairnessMetric, GROUP_METRICS } from './metric.js';
import { twoGroupMetricOf } from './named-group-settings.js';
import type { AuditPool } from './pool.js';
import { oracleDecision, prepareAudit } from './prepare-audit.js';
import { QUERY_ORDERS, type QueryOrder } from './query-order.js';
import { type AuditRunResult, runAudit } from './run-audit.js';
import type { SequentialDecision } from './sequential-audit.js';
import { type AuditSummary, summarizeAudits } from './summarize-audits.js';
import { varianceRefusal } from './variance-refusal.js';

/**
 * What auditPool accepts: an audit's settings (auditSettingsSchema: metric, access,
 * tolerance δ, scoreTolerance, logitTolerance, budget, alpha, beta, minimumPerGroup)
 * and how to repeat it: the query order, its seed, the number of replicates and the
 * `early` horizon of the small-sample count.
 */
export const auditPoolSettingsSchema = schema.object(
  {
    ...auditSettingsProperties,
    metric: schema.enumOf(GROUP_METRICS, {
      default: 'sp',
      description:
        'Fairness metric: sp audits the whole pool, eo the rows with label = 1; for pools of named groups also pe ' +
        '(predictive equality: the false-positive rate, rows with label = 0) and eodds (equalized odds: the TPR and ' +
        'FPR tests together).',
    }),
    aggregation: schema.enumOf(['difference', 'ratio'] as const, {
      default: 'difference',
      description:
        'Pools of named groups: difference (H0 max − min of the group rates ≤ tolerance) or ratio (H0 min ≥ ' +
        'ratio · max, the impact ratio; needs --test wald-glr).',
    }),
    ratio: schema.number({
      minimum: 0,
      maximum: 1,
      exclusiveMinimum: true,
      exclusiveMaximum: true,
      default: 0.8,
      description: 'ρ of aggregation ratio: the smallest compliant min / max (0.8: the four-fifths rule).',
    }),
    test: schema.optional(
      schema.enumOf(TEST_NAMES, {
        description:
          'The sequential test (docs/error-control.md): betting (anytime-valid testing by betting, the default ' +
          "for a user's own pool), calibrated-glr (the GLR with Monte Carlo calibrated thresholds; the default when " +
          'thresholds is calibrated or given), confidence-sequence (anytime-valid, weaker; reports a gap interval), ' +
          "wald-glr (paper A's GLR with Wald's thresholds, exactly as published; " +
          'its false-violation rate is not controlled).',
      }),
    ),
    order: schema.enumOf(QUERY_ORDERS, {
      default: 'random',
      description:
        'random: a uniform order without replacement, replicate r seeded by deriveSeed(seed, r); balanced: the ' +
        "groups alternate, each in random order; given: the pool's order.",
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

/** The settings auditPool applies: auditPoolSettingsSchema's keys, defaults filled in. */
export type AuditPoolSettings = Infer<typeof auditPoolSettingsSchema>;

/** What every audit summary says: the settings as applied, the thresholds and the pool's oracle. */
interface AuditPoolCommon {
  readonly metric: FairnessMetric;
  readonly access: AccessRegime;
  /** Rows of the metric's pool and their split by group. */
  readonly poolSize: number;
  readonly groupCounts: { readonly a: number; readonly b: number };
  /** The metric's hard-decision gap on the whole pool, group b minus group a (6 decimals), and the oracle's decision
   * against δ. */
  readonly oracleGap: number;
  readonly oracleDecision: FixedSampleDecision;
  /** The score or logit mean gap, group b minus group a (score and logit access only). */
  readonly proxyGap?: number;
  /** The null hypothesis the sequential test tests, in words (nullHypothesisText). */
  readonly hypothesis: string;
  /** The guarantee behind the test's verdicts, or that there is none (guaranteeText). */
  readonly guarantee: string;
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
  /** When an audit ended inconclusive with rows left: how it may be continued (continuationOf). */
  readonly continuation?: string;
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
  readonly order: QueryOrder;
  readonly seed?: string;
}

/** One audit: its decision, queries and statistic, and the fixed-sample decision on the same order. */
export interface SingleAuditSummary extends AuditPoolCommon {
  readonly replicates: 1;
  readonly decision: SequentialDecision;
  /** The decision in the auditor's words: reject H0 is a violation, accept H0 compliance. */
  readonly verdict: Verdict;
  /** The verdict in a sentence with H0 and its guarantee (verdictText). */
  readonly verdictText: string;
  readonly queries: number;
  /** GLR tests: the final signed GLR; "Infinity" or "-Infinity" as text when infinite (JSON has no infinity). */
  readonly statistic?: number | string;
  /** test betting: log of its e-value against H0 (it rejects at log(1/alpha)); "Infinity" once the draws rule H0 out.
   * */
  readonly logEValue?: number | string;
  readonly fixedDecision: FixedSampleDecision | null;
  readonly fixedSamples: number;
  /** The gap on the fixed-sample rows, group b minus group a. */
  readonly fixedGap: number;
  /** test confidence-sequence: its 1 - alpha interval for the gap (b minus a) when it stopped, valid at any stopping
   * time. */
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
    metric: settings.metric as FairnessMetric, // sp or eo: twoGroupMetricOf refused the rest
    access: settings.access,
    poolSize: prepared.size,
    groupCounts: { a: prepared.countA, b: prepared.countB },
    oracleGap: round(prepared.oracleSignedGap),
    oracleDecision: oracleDecision(prepared, settings.tolerance),
    ...(prepared.family === 'gaussian'
      ? { proxyGap: round(prepared.totalB / prepared.countB - prepared.totalA / prepared.countA) }
      : {}),
    hypothesis: nullHypothesisText(
      settings.metric as FairnessMetric,
      settings.access,
      toleranceOfAccess(settings, settings.access),
    ),
    guarantee: guaranteeText(auditTest.name, {
      alpha: settings.alpha,
      beta: settings.beta,
      ...(calibration === null ? {} : { confidence: calibration.record.options.confidence }),
    }),
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

/** A number for JSON: "Infinity" or "-Infinity" as text (JSON has no infinity). */
function jsonNumber(value: number): number | string {
  return Number.isFinite(value) ? value : String(value);
}

function singleSummary(common: AuditPoolCommon, result: AuditRunResult): SingleAuditSummary {
  const verdict = verdictOf(result.decision);
  const glr = common.test === 'wald-glr' || common.test === 'calibrated-glr';
  return {
    ...common,
    replicates: 1,
    decision: result.decision,
    verdict,
    verdictText: verdictText(verdict, common.hypothesis, result.queries, common.guarantee),
    queries: result.queries,
    ...(glr ? { statistic: jsonNumber(result.statistic) } : {}),
    ...(result.logEValue === undefined ? {} : { logEValue: jsonNumber(round(result.logEValue)) }),
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
  results: readonly AuditRunResult[],
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
 * withDefaultTest(settings) is the settings with the test of a user's own audit filled in
 * when neither `test` nor `thresholds` chooses one: betting, whose error rates are
 * controlled at any stopping time. (Paper A's wald-glr stays the default of the
 * sequential-audit kind, which reproduces the paper.) O(1).
 * @param settings auditPool's settings as given
 * @returns the settings, with test betting when none is chosen
 * @example withDefaultTest({ tolerance: 0.1 }) // { tolerance: 0.1, test: 'betting' }
 */
export function withDefaultTest<S extends Partial<AuditPoolSettings>>(settings: S): S {
  if (settings.test !== undefined || settings.thresholds !== undefined) return settings;
  return { ...settings, test: 'betting' };
}

/**
 * auditPool(pool, settings, name, lookup, threadOptions) audits a pool with the sequential
 * test its settings select (the betting test by default, withDefaultTest; `test`,
 * `thresholds`, `order`, `logitBounds`: docs/error-control.md): it validates the settings
 * once (auditPoolSettingsSchema, defaults filled in; `name` turns a settings key into the
 * words of a message, e.g. a CLI flag), prepares the metric's pool, finds the calibration
 * calibrated-glr needs in the cache of `lookup` or computes it on worker threads
 * (threadOptions: threads and an onProgress callback; lookup.onNotice hears its expected
 * duration first), builds the test, runs `replicates` seeded audits (replicate r's order
 * from deriveSeed(seed, r), or the pool's order), and resolves with what `fairaudit audit`
 * prints: the settings as applied, H0 and the test's guarantee in words, the thresholds, the
 * pool's oracle gap (b − a) and decision, and either the one audit (its verdict in words,
 * queries, evidence, fixed-sample decision) or the replicates' summary. Rejects with
 * InputError for bad settings, a pool without the access regime's column, a metric pool
 * missing a group, or a calibration that cannot meet alpha and beta (or certifies nothing).
 * Running time O(pool size + replicates · min(budget, pool size)), plus a calibration when
 * one is needed and not cached.
 * @param pool the model's outputs (readPoolFile)
 * @param settings the audit's settings (auditPoolSettingsSchema's keys; absent keys take their defaults)
 * @param name turns a settings key into the words of a message (a CLI flag, say)
 * @param lookup where calibrations are cached and read, and a notice callback
 * @param threadOptions the calibration's worker threads and progress callback
 * @returns the summary `fairaudit audit --json` prints (src/audit/audit-output-schema.ts)
 * @example
 * const summary = await auditPool(readPoolFile('outputs.csv'), { metric: 'sp', tolerance: 0.05, seed: 'audit-1' });
 * console.log(summary.verdictText);
 */
export async function auditPool(
  pool: AuditPool,
  settings: Partial<AuditPoolSettings> = {},
  name: (key: string) => string = (key) => `auditPool: ${key}`,
  lookup: CalibrationLookup = {},
  threadOptions: CalibrationThreadOptions = {},
): Promise<AuditPoolSummary> {
  const valid = validateInput(withDefaultTest(settings), auditPoolSettingsSchema, (path) =>
    path.length === 0 ? name('settings') : name(path.map(String).join('.')),
  );
  const metric = twoGroupMetricOf(valid, name);
  const prepared = prepareAudit(pool, metric, valid.access);
  const calibration = await calibrationAhead(prepared, valid, name, lookup, threadOptions);
  const auditTest = buildAuditTest(prepared, valid, { where: name('thresholds'), ...lookup }, calibration);
  const results: AuditRunResult[] = [];
  for (let r = 0; r < valid.replicates; r++) {
    const random = valid.order === 'given' ? null : createRandom(deriveSeed(valid.seed as string, r));
    results.push(runAudit(prepared, valid, auditTest, valid.order, random));
  }
  const open = results.some((result) => result.decision === 'inconclusive') && valid.budget < prepared.size;
  const common = {
    ...commonSummary(valid, prepared, auditTest),
    ...(open ? { continuation: continuationOf(auditTest.name, valid.budget) } : {}),
  };
  return valid.replicates === 1 ? singleSummary(common, results[0]) : repeatedSummary(common, results, valid.early);
}

/**
 * The calibration an audit of a prepared pool needs (null when its settings need none),
 * from the cache or computed on worker threads, refused when vacuous or when the pool's
 * variance is too small for the GLR.
 */
async function calibrationAhead(
  prepared: ReturnType<typeof prepareAudit>,
  valid: CalibratedAuditSettings,
  name: (key: string) => string,
  lookup: CalibrationLookup,
  threadOptions: CalibrationThreadOptions,
): Promise<FoundCalibration | null> {
  if (!needsCalibration(valid)) return null;
  const refusal = varianceRefusal(prepared, toleranceOfAccess(valid, prepared.access));
  if (refusal !== null) throw refusal;
  let found: FoundCalibration;
  try {
    found = await calibrationOnThreads(
      calibrationSettingOf(prepared, valid),
      calibrationOptionsOf(valid),
      { where: name('thresholds'), ...lookup },
      threadOptions,
    );
  } catch (error) {
    throw namedLevel(error, name);
  }
  const vacuous = vacuousCalibration(found.record);
  if (vacuous !== null) throw vacuous;
  return found;
}

/**
 * A calibration's "cannot meet alpha (or beta)" error with the level named as the caller
 * names its settings (`--alpha` for the CLI), not by the function that found it.
 */
function namedLevel(error: unknown, name: (key: string) => string): unknown {
  if (!(error instanceof InputError)) return error;
  const level = /^calibrateGlrThresholds: (alpha|beta): /.exec(error.message);
  return level === null ? error : new InputError(`${name(level[1])}: ${error.message.slice(level[0].length)}`);
}

/**
 * calibrateForAuditPool(pool, settings, name, lookup, threadOptions) computes ahead, on
 * worker threads, the calibration auditPool(pool, settings) needs (test calibrated-glr with
 * thresholds absent or calibrated; otherwise it resolves with null at once), and saves it
 * to the cache, without auditing: for a cache warmed before the audits (auditPool
 * calibrates by itself when the cache lacks it). The audit's settings (auditSettingsSchema:
 * the keys of auditPool's settings that an audit has, so `seed` and `replicates` are not
 * needed) are validated and the metric's pool prepared. Rejects with InputError as
 * auditPool does. Running time: a calibration on the threads.
 * @param pool the model's outputs
 * @param settings the audit's settings, as auditPool takes them
 * @param name turns a settings key into the words of a message
 * @param lookup where calibrations are cached and read
 * @param threadOptions worker threads and a progress callback
 * @returns the calibration found in the cache or computed and saved, or null when the settings need none
 * @example
 * await calibrateForAuditPool(pool, { test: 'calibrated-glr' }, undefined, {}, { threads: 2 });
 */
export async function calibrateForAuditPool(
  pool: AuditPool,
  settings: Partial<AuditPoolSettings>,
  name: (key: string) => string = (key) => `auditPool: ${key}`,
  lookup: CalibrationLookup = {},
  threadOptions: CalibrationThreadOptions = {},
): Promise<FoundCalibration | null> {
  twoGroupMetricOf(settings, name);
  if (!needsCalibration(settings)) return null;
  const audit = Object.fromEntries(Object.entries(settings).filter(([key]) => key in auditSettingsProperties));
  const valid = validateInput(audit, auditSettingsSchema, (path) =>
    path.length === 0 ? name('settings') : name(path.map(String).join('.')),
  );
  return calibrationAhead(prepareAudit(pool, valid.metric, valid.access), valid, name, lookup, threadOptions);
}

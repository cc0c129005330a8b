import type { Argv } from 'yargs';
import { ACCESS_REGIMES, type AccessRegime } from '../audit/access-regime.js';
import type { AuditPoolSettings } from '../audit/audit-pool.js';
import { TEST_NAMES, type TestName } from '../audit/audit-test.js';
import { FAIRNESS_METRICS, type FairnessMetric } from '../audit/metric.js';
import type { AuditPool } from '../audit/pool.js';
import { readPoolFile } from '../audit/pool-io.js';
import { generateSyntheticPool, type SyntheticPoolSpec, syntheticPoolSchema } from '../data/synthetic-pool.js';
import { InputError, inputError } from '../util/errors.js';
import { parseJsonUntrusted } from '../util/parse-untrusted.js';
import { checkIntegerFlag } from './check-flag.js';
import { formatPath, validateInput } from '../util/schema.js';

/**
 * The flags of an audit's settings that `fairaudit audit` and `fairaudit calibrate`
 * share (one definition, so their meaning and help text agree), and how they map onto
 * the audit settings (src/audit/audit-settings.ts), which validate them.
 */
export interface AuditFlags {
  pool?: string;
  synthetic?: string;
  metric: FairnessMetric;
  access: AccessRegime;
  tolerance: number;
  'score-tolerance': number;
  'logit-tolerance': number;
  'decision-tolerance'?: number;
  budget: number;
  alpha: number;
  beta: number;
  'minimum-per-group'?: number;
  order: 'random' | 'balanced' | 'given';
  'logit-bounds'?: string;
  'calibration-paths'?: number;
  'calibration-seed'?: string;
  'calibration-base-rates'?: string;
  threads?: number;
}

/** The flag of each audit setting, so a bad value is reported as the user wrote it. */
export const flagOf: Record<string, string> = {
  metric: '--metric',
  access: '--access',
  tolerance: '--tolerance',
  scoreTolerance: '--score-tolerance',
  logitTolerance: '--logit-tolerance',
  budget: '--budget',
  alpha: '--alpha',
  beta: '--beta',
  minimumPerGroup: '--minimum-per-group',
  order: '--order',
  seed: '--seed',
  replicates: '--replicates',
  early: '--early',
  test: '--test',
  thresholds: '--thresholds (or --upper/--lower)',
  'thresholds.upper': '--upper',
  'thresholds.lower': '--lower',
  logitBounds: '--logit-bounds',
  'logitBounds.lower': '--logit-bounds',
  'logitBounds.upper': '--logit-bounds',
  'calibration.paths': '--calibration-paths',
  'calibration.seed': '--calibration-seed',
  'calibration.baseRates': '--calibration-base-rates',
};

/** addAuditOptions(yargs) defines the shared flags (`order` choices as given). */
export function addAuditOptions<T>(yargs: Argv<T>, orders: readonly string[]): Argv<T> {
  return yargs
    .option('pool', { type: 'string', describe: 'Pool file: .arrow or CSV with group,label,decision[,score,logit]' })
    .option('synthetic', {
      type: 'string',
      describe:
        'Instead of --pool, a generated pool: JSON {"size","groupShare","labelRate":[a,b],"decisionRate":[a,b],"logitScale"?,"seed"?} (src/data/synthetic-pool.ts)',
    })
    .option('metric', {
      choices: FAIRNESS_METRICS,
      default: 'sp' as FairnessMetric,
      describe: 'sp: all rows; eo: rows with label = 1',
    })
    .option('access', {
      choices: ACCESS_REGIMES,
      default: 'decision' as AccessRegime,
      describe: 'What the auditor observes',
    })
    .option('tolerance', {
      type: 'number',
      default: 0.05,
      describe: 'delta: the tolerance on the SP/EO gap of hard decisions (decision access and the oracle)',
    })
    .option('score-tolerance', {
      type: 'number',
      default: 0.05,
      describe: 'The proxy tolerance on the gap of mean scores (score access)',
    })
    .option('logit-tolerance', {
      type: 'number',
      default: 0.2,
      describe: 'The proxy tolerance on the gap of mean logits (logit access)',
    })
    .option('decision-tolerance', { type: 'number', hidden: true, describe: 'Removed: --tolerance is delta now' })
    .option('budget', {
      type: 'number',
      default: 4000,
      describe: 'B: most queries; the audit stops at min(B, pool size)',
    })
    .option('alpha', {
      type: 'number',
      default: 0.05,
      describe: 'alpha: the level of false violations (Wald: upper threshold log((1-beta)/alpha))',
    })
    .option('beta', {
      type: 'number',
      default: 0.2,
      describe: 'beta: the level of false compliance (Wald: lower threshold log(beta/(1-alpha)))',
    })
    .option('order', {
      choices: orders,
      default: 'random',
      describe:
        'random: uniform without replacement; balanced: the groups alternate, each in random order; given: the pool order',
    })
    .option('minimum-per-group', {
      type: 'number',
      describe:
        'Start the test once each group has this many observations (paper A: 1; calibrated-glr with score/logit access: 5; see docs/core.md and docs/error-control.md)',
    })
    .option('logit-bounds', {
      type: 'string',
      describe: 'LOWER,UPPER: declared bounds of the logits (betting and confidence-sequence tests with logit access)',
    })
    .option('calibration-paths', {
      type: 'number',
      describe: 'Calibrated thresholds: simulated audits per calibration pool (default 4000)',
    })
    .option('calibration-seed', {
      type: 'string',
      describe: 'Calibrated thresholds: seed of the calibration (default "calibrate")',
    })
    .option('calibration-base-rates', {
      type: 'string',
      describe:
        "Calibrated thresholds, decision access: group a's rates in the simulated pools, as fractions of [0, 1 - delta], comma-separated",
    })
    .option('threads', { type: 'number', describe: 'Worker threads for a calibration (default: one per core)' });
}

/** The --test / --thresholds / --upper / --lower flags of `fairaudit audit`. */
export interface TestFlags {
  test?: TestName;
  thresholds?: 'wald' | 'calibrated';
  upper?: number;
  lower?: number;
}

/** addTestOptions(yargs) defines the flags that choose the test. */
export function addTestOptions<T>(yargs: Argv<T>): Argv<T> {
  return yargs
    .option('test', {
      choices: TEST_NAMES,
      describe:
        "The sequential test: wald-glr (paper A's, the default), calibrated-glr, betting, confidence-sequence (docs/error-control.md)",
    })
    .option('thresholds', {
      choices: ['wald', 'calibrated'] as const,
      describe: "The GLR's thresholds: wald (paper A's) or calibrated (cached by fingerprint)",
    })
    .option('upper', {
      type: 'number',
      describe: 'Given upper threshold of the GLR (with --lower; e.g. from fairaudit calibrate)',
    })
    .option('lower', { type: 'number', describe: 'Given lower threshold of the GLR (with --upper)' });
}

/** Parses --logit-bounds LOWER,UPPER (InputError naming the flag). */
function logitBoundsOf(text: string): { lower: number; upper: number } {
  const parts = text.split(',').map((part) => Number(part.trim()));
  if (parts.length !== 2 || parts.some((part) => !Number.isFinite(part)) || text.trim() === '') {
    throw inputError({ where: '--logit-bounds', expected: 'two numbers LOWER,UPPER', found: text });
  }
  return { lower: parts[0], upper: parts[1] };
}

/**
 * auditSettingsOfFlags(argv) maps the shared flags onto audit settings (validated later
 * by the settings' schema, so messages name the flag through flagOf). Throws InputError
 * for --decision-tolerance (gone), neither or both of --pool / --synthetic, and a
 * malformed --logit-bounds. O(1).
 */
export function auditSettingsOfFlags(argv: AuditFlags): Partial<AuditPoolSettings> {
  if (argv['decision-tolerance'] !== undefined) {
    throw new InputError(
      '--decision-tolerance: this flag is gone; --tolerance is now δ (the tolerance on the gap of hard decisions, used by the oracle), and the proxy tests of score and logit access take --score-tolerance and --logit-tolerance',
    );
  }
  if ((argv.pool === undefined) === (argv.synthetic === undefined)) {
    throw inputError({
      where: '--pool / --synthetic',
      expected: 'exactly one of them',
      found: argv.pool === undefined ? 'neither' : 'both',
    });
  }
  const calibration = {
    ...(argv['calibration-paths'] === undefined ? {} : { paths: argv['calibration-paths'] }),
    ...(argv['calibration-seed'] === undefined ? {} : { seed: argv['calibration-seed'] }),
    ...(argv['calibration-base-rates'] === undefined
      ? {}
      : { baseRates: argv['calibration-base-rates'].split(',').map((part) => Number(part.trim())) }),
  };
  return {
    metric: argv.metric,
    access: argv.access,
    tolerance: argv.tolerance,
    scoreTolerance: argv['score-tolerance'],
    logitTolerance: argv['logit-tolerance'],
    budget: argv.budget,
    alpha: argv.alpha,
    beta: argv.beta,
    ...(argv['minimum-per-group'] === undefined ? {} : { minimumPerGroup: argv['minimum-per-group'] }),
    order: argv.order,
    ...(argv['logit-bounds'] === undefined ? {} : { logitBounds: logitBoundsOf(argv['logit-bounds']) }),
    ...(Object.keys(calibration).length === 0 ? {} : { calibration: calibration as AuditPoolSettings['calibration'] }),
  };
}

/** testSettingsOfFlags(argv) maps --test, --thresholds, --upper, --lower onto the settings (InputError for a mix). */
export function testSettingsOfFlags(argv: TestFlags): Partial<AuditPoolSettings> {
  const given = argv.upper !== undefined || argv.lower !== undefined;
  if (given && (argv.upper === undefined || argv.lower === undefined)) {
    throw inputError({
      where: argv.upper === undefined ? '--upper' : '--lower',
      expected: 'both --upper and --lower (given thresholds)',
      found: 'only one of them',
    });
  }
  if (given && argv.thresholds !== undefined) {
    throw inputError({
      where: '--thresholds',
      expected: 'nothing with --upper/--lower (they are the thresholds)',
      found: argv.thresholds,
    });
  }
  return {
    ...(argv.test === undefined ? {} : { test: argv.test }),
    ...(given ? { thresholds: { upper: argv.upper as number, lower: argv.lower as number } } : {}),
    ...(argv.thresholds === undefined ? {} : { thresholds: argv.thresholds }),
  };
}

/**
 * The pool of --synthetic JSON (parsed without prototypes; `__proto__`, `constructor`
 * and `prototype` refused): a synthetic pool recipe validated by the schema configs
 * use (src/data/synthetic-pool.ts: unknown keys and sizes above 50 million refused), with logitScale 1 and seed "audit" unless given.
 * Throws InputError naming --synthetic and the key.
 */
function syntheticPoolOf(text: string): AuditPool {
  const recipe = parseJsonUntrusted(text, '--synthetic', 'a JSON object (a synthetic pool recipe)');
  if (typeof recipe !== 'object' || recipe === null || Array.isArray(recipe)) {
    throw inputError({ where: '--synthetic', expected: 'a JSON object (a synthetic pool recipe)', found: text });
  }
  const spec = validateInput(
    { logitScale: 1, seed: 'audit', ...recipe },
    syntheticPoolSchema,
    (path) => `--synthetic: ${formatPath(path)}`,
  );
  return generateSyntheticPool(spec as SyntheticPoolSpec, '--synthetic');
}

/** poolOfFlags(argv): the pool of --pool (with the access regime's column) or --synthetic. */
export function poolOfFlags(argv: Pick<AuditFlags, 'pool' | 'synthetic' | 'access'>): AuditPool {
  if (argv.pool === undefined) return syntheticPoolOf(argv.synthetic as string);
  return readPoolFile(argv.pool, { require: argv.access === 'score' || argv.access === 'logit' ? [argv.access] : [] });
}

/** checkThreadsFlag(threads) throws InputError naming --threads unless it is an integer in [1, 1024] (or absent). */
export function checkThreadsFlag(threads: number | undefined): void {
  if (threads !== undefined) checkIntegerFlag('--threads', threads, 1, 1024);
}

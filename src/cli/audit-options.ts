import type { Argv, Options } from 'yargs';
import { auditPoolSettingsSchema } from '../audit/audit-pool.js';
import { auditSettingsProperties } from '../audit/audit-settings.js';
import type { AuditPool } from '../audit/pool.js';
import { poolColumnsProperties } from '../audit/pool-columns.js';
import { readPoolFile } from '../audit/pool-io.js';
import { generateSyntheticPool, type SyntheticPoolSpec, syntheticPoolSchema } from '../data/synthetic-pool.js';
import { inputError } from '../util/errors.js';
import { parseJsonUntrusted } from '../util/parse-untrusted.js';
import { formatPath, validateInput } from '../util/schema.js';
import { checkThreads, threadsOption } from './common-options.js';
import {
  flagOfKey,
  kebabCase,
  type SchemaProperties,
  settingOptions,
  settingsOfFlags,
  withOptions,
} from './schema-options.js';

/**
 * The flags of `fairaudit audit` and `fairaudit calibrate`: every flag of an audit's
 * settings is made from the settings' schema (src/audit/audit-settings.ts, auditPool's
 * settings in src/audit/audit-pool.ts) by settingOptions, so type, description, choices
 * and the default shown in --help come from the schema, and only the flags a user gave
 * reach the settings (the schema fills in the rest). The pool's flags (--pool,
 * --synthetic, the column mapping) and --threads are the commands' own.
 */

/** The settings flags of `fairaudit audit`: auditPool's settings (the test, its thresholds, seed, replicates, early).
 * */
export function auditCommandSettings(): SchemaProperties {
  return auditPoolSettingsSchema.properties;
}

/** The settings flags of `fairaudit calibrate`: an audit's settings but the test and thresholds (calibrate's own). */
export function calibrateCommandSettings(): SchemaProperties {
  const { test: _test, thresholds: _thresholds, ...rest } = auditSettingsProperties;
  return rest;
}

/** The flags --upper and --lower set the keys of given thresholds. */
const THRESHOLD_FLAGS = {
  thresholds: '--thresholds (or --upper/--lower)',
  'thresholds.upper': '--upper',
  'thresholds.lower': '--lower',
} as const;

/**
 * flagNamer(properties) turns a settings key path of a validation message into the flag a
 * user wrote ("scoreTolerance" → "--score-tolerance", "thresholds.upper" → "--upper"). O(keys).
 * @param properties the settings schema the flags were made from
 * @returns the naming function auditPool and calibrateForAuditPool take
 * @example flagNamer(auditCommandSettings())('calibration.paths') // '--calibration-paths'
 */
export function flagNamer(properties: SchemaProperties): (key: string) => string {
  return (key) => flagOfKey(properties, key, THRESHOLD_FLAGS);
}

/** The column mapping flags of --pool (--group-column, alias --group-col, …), made from poolColumnsProperties. */
function poolColumnOptions(): Record<string, Options> {
  return Object.fromEntries(
    Object.entries(settingOptions(poolColumnsProperties)).map(([flag, option]) => [
      flag,
      flag.endsWith('-column') ? { ...option, alias: flag.replace(/-column$/, '-col') } : option,
    ]),
  );
}

/**
 * addAuditOptions(yargs, properties) defines the settings flags made from `properties`
 * (auditCommandSettings or calibrateCommandSettings), the pool flags (--pool, --synthetic,
 * the column mapping) and --threads. O(keys).
 * @param yargs the command's parser
 * @param properties the settings schema the flags are made from
 * @returns the parser with the flags
 * @example addAuditOptions(yargs, calibrateCommandSettings())
 */
export function addAuditOptions<T>(yargs: Argv<T>, properties: SchemaProperties) {
  return withOptions(yargs, { ...settingOptions(properties), ...poolColumnOptions() })
    .option('pool', {
      type: 'string',
      describe:
        'Pool file: .arrow or CSV with group, label, decision[, score, logit] (or the columns the mapping names)',
    })
    .option('synthetic', {
      type: 'string',
      describe:
        'Instead of --pool, a generated pool: JSON ' +
        '{"size","groupShare","labelRate":[a,b],"decisionRate":[a,b],"logitScale"?,"seed"?} ' +
        '(src/data/synthetic-pool.ts)',
    })
    .option('threads', { ...threadsOption, describe: 'Worker threads for a calibration (default: one per core)' });
}

/**
 * addThresholdOptions(yargs) defines --upper and --lower, the given thresholds of the GLR
 * (the mapping form of the thresholds setting), described by the schema.
 */
export function addThresholdOptions<T>(yargs: Argv<T>) {
  const thresholds = auditSettingsProperties.thresholds.options[1].properties;
  return yargs
    .option('upper', { type: 'number', describe: `${thresholds.upper.description} Given with --lower.` })
    .option('lower', { type: 'number', describe: `${thresholds.lower.description} Given with --upper.` });
}

/**
 * auditSettingsOfFlags(argv, properties) is the settings the user gave: the flags of
 * `properties` present in argv (settingsOfFlags), plus --upper/--lower as given thresholds.
 * Throws InputError for only one of --upper and --lower, or either with --thresholds. O(keys).
 * @param argv the parsed arguments
 * @param properties the settings schema the flags were made from
 * @returns the settings to validate (auditPool does)
 * @example auditSettingsOfFlags({ tolerance: 0.1 }, auditCommandSettings()) // { tolerance: 0.1 }
 */
export function auditSettingsOfFlags(
  argv: Readonly<Record<string, unknown>>,
  properties: SchemaProperties,
): Record<string, unknown> {
  const settings = settingsOfFlags(argv, properties);
  const { upper, lower } = argv;
  if (upper === undefined && lower === undefined) return settings;
  if (upper === undefined || lower === undefined) {
    throw inputError({
      where: upper === undefined ? '--upper' : '--lower',
      expected: 'both --upper and --lower (given thresholds)',
      found: 'only one of them',
    });
  }
  if (settings.thresholds !== undefined) {
    throw inputError({
      where: '--thresholds',
      expected: 'nothing with --upper/--lower (they are the thresholds)',
      found: settings.thresholds,
    });
  }
  return { ...settings, thresholds: { upper, lower } };
}

/**
 * The pool of --synthetic JSON (parsed without prototypes; `__proto__`, `constructor`
 * and `prototype` refused): a synthetic pool recipe validated by the schema configs
 * use (src/data/synthetic-pool.ts: unknown keys and sizes above 50 million refused), with
 * logitScale 1 and seed "audit" unless given. Throws InputError naming --synthetic and the key.
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

/**
 * poolOfFlags(argv) is the pool of --pool (read with the column mapping flags, the access
 * regime's column required) or of --synthetic. Throws InputError for neither or both, a
 * mapping flag with --synthetic, and a bad file or recipe. O(pool size).
 * @param argv the parsed arguments
 * @returns the pool
 * @example poolOfFlags({ pool: 'p.csv', 'group-column': 'sex', 'group-a': 'Female' })
 */
export function poolOfFlags(argv: Readonly<Record<string, unknown>>): AuditPool {
  const { pool, synthetic } = argv as { pool?: string; synthetic?: string };
  if ((pool === undefined) === (synthetic === undefined)) {
    throw inputError({
      where: '--pool / --synthetic',
      expected: 'exactly one of them',
      found: pool === undefined ? 'neither' : 'both',
    });
  }
  const columns = settingsOfFlags(argv, poolColumnsProperties);
  if (pool === undefined) {
    const given = Object.keys(columns);
    if (given.length > 0) {
      throw inputError({
        where: `--${kebabCase(given[0])}`,
        expected: 'a column mapping only with --pool (a synthetic pool has the canonical columns)',
        found: String(columns[given[0]]),
      });
    }
    return syntheticPoolOf(synthetic as string);
  }
  const access = argv.access;
  return readPoolFile(pool, { require: access === 'score' || access === 'logit' ? [access] : [], columns });
}

/**
 * checkThreadsFlag(threads) applies checkThreads (the one check of --threads) to a value
 * that may be absent; for commands whose --threads has a default of its own.
 * @param threads the parsed --threads
 * @example checkThreadsFlag(2)
 */
export function checkThreadsFlag(threads: number | undefined): void {
  if (threads !== undefined) checkThreads(threads);
}

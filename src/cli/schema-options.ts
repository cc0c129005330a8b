import type { Argv, Options } from 'yargs';
import { inputError } from '../util/errors.js';
import { describeExpected, type ObjectSchema, type Schema } from '../util/schema.js';

/** The properties of a settings schema (an object schema's `properties`). */
export type SchemaProperties = ObjectSchema<Record<string, Schema>>['properties'];

/** How one setting reaches the command line: its flag, and how the flag's text becomes the setting's value. */
interface SettingFlag {
  /** The key path in the settings, e.g. ["calibration", "paths"]. */
  readonly path: readonly string[];
  /** The flag without dashes, e.g. "calibration-paths". */
  readonly flag: string;
  readonly option: Options;
  /** A mapping of numbers given as one comma-separated flag (e.g. --logit-bounds LOWER,UPPER), its keys in order. */
  readonly tupleKeys?: readonly string[];
  /** A list of numbers given as one comma-separated flag. */
  readonly numberList?: boolean;
}

/**
 * kebabCase(key) is the flag spelling of a settings key: scoreTolerance → score-tolerance,
 * minimumPerGroup → minimum-per-group. O(length).
 */
export function kebabCase(key: string): string {
  return key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}

/** The help text's "[default: …]" of a schema default. */
function defaultText(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

function isNumberTuple(s: Schema): boolean {
  return (
    s.type === 'object' &&
    Object.keys(s.properties).length > 0 &&
    Object.values(s.properties).every((property) => property.type === 'number' && property.default === undefined)
  );
}

/** The yargs option of a scalar schema: type, choices, description; the default only described (never passed). */
function scalarOption(s: Schema): Options | undefined {
  const shown = s.default === undefined ? {} : { defaultDescription: defaultText(s.default) };
  const describe = s.description;
  switch (s.type) {
    case 'number':
      return { type: 'number', describe: `${describe} (${describeExpected(s)})`, ...shown };
    case 'enum':
      return { type: 'string', choices: [...s.values], describe, ...shown };
    case 'string':
    case 'seed':
      return { type: 'string', describe, ...shown };
    case 'boolean':
      return { type: 'boolean', describe, ...shown };
    case 'oneOf': {
      // The flag takes the textual option (e.g. thresholds: wald | calibrated); mappings need flags of their own.
      const textual = s.options.find((option) => option.type === 'enum');
      return textual?.type === 'enum'
        ? { type: 'string', choices: [...textual.values], describe, ...shown }
        : undefined;
    }
    default:
      return undefined;
  }
}

/**
 * settingFlags(properties, prefix) lists the flags of a settings schema: one per scalar key
 * (kebab-case of the key), a mapping of numbers as one comma-separated flag, a list of
 * numbers as one comma-separated flag, and any other mapping flattened (calibration.paths →
 * --calibration-paths). O(keys).
 */
function settingFlags(properties: SchemaProperties, prefix: readonly string[] = []): SettingFlag[] {
  const flags: SettingFlag[] = [];
  for (const [key, property] of Object.entries(properties)) {
    const path = [...prefix, key];
    const flag = path.map(kebabCase).join('-');
    if (property.type === 'object' && isNumberTuple(property)) {
      const keys = Object.keys(property.properties);
      const shape = keys.map((name) => name.toUpperCase()).join(',');
      flags.push({
        path,
        flag,
        option: { type: 'string', describe: `${shape}: ${property.description}` },
        tupleKeys: keys,
      });
    } else if (property.type === 'array' && property.items.type === 'number') {
      const describe = `${property.description} (comma-separated)`;
      flags.push({ path, flag, option: { type: 'string', describe }, numberList: true });
    } else if (property.type === 'object') {
      flags.push(...settingFlags(property.properties, path));
    } else {
      const option = scalarOption(property);
      if (option !== undefined) flags.push({ path, flag, option });
    }
  }
  return flags;
}

/**
 * settingOptions(properties) is the yargs options of a settings schema, keyed by flag:
 * type, description and choices from the schema, the default shown in the help but not
 * set, so that a flag the user did not give stays absent and the schema's default applies
 * (settingsOfFlags). O(keys).
 * @param properties the settings schema's properties (e.g. auditPoolSettingsSchema.properties)
 * @returns a record of yargs options for `yargs.options(...)`
 * @example yargs.options(settingOptions(auditSettingsSchema.properties))
 */
export function settingOptions(properties: SchemaProperties): Record<string, Options> {
  return Object.fromEntries(settingFlags(properties).map(({ flag, option }) => [flag, option]));
}

/**
 * withOptions(yargs, options) adds options made at run time (settingOptions) to a parser
 * and returns it with its type unchanged: their values are read as settings through
 * settingsOfFlags, never as typed fields (yargs' .options(record) would type every later
 * flag as unknown). O(options).
 * @param yargs the command's parser
 * @param options yargs options keyed by flag
 * @returns the same parser
 * @example withOptions(yargs, settingOptions(auditSettingsSchema.properties))
 */
export function withOptions<T>(yargs: Argv<T>, options: Readonly<Record<string, Options>>): Argv<T> {
  for (const [flag, option] of Object.entries(options)) yargs.option(flag, option);
  return yargs;
}

/** Parses a comma-separated list of numbers (an InputError naming the flag otherwise). */
function numbersOf(flag: string, text: string, keys?: readonly string[]): number[] {
  const parts = text.split(',').map((part) => part.trim());
  const numbers = parts.map(Number);
  const count = keys?.length ?? parts.length;
  if (parts.some((part) => part === '') || numbers.some((n) => !Number.isFinite(n)) || count !== parts.length) {
    const shape = keys?.map((key) => key.toUpperCase()).join(',');
    const expected =
      shape === undefined ? 'comma-separated numbers' : `${count === 2 ? 'two' : count} numbers ${shape}`;
    throw inputError({ where: `--${flag}`, expected, found: text });
  }
  return numbers;
}

function setAt(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let node = target;
  for (const key of path.slice(0, -1)) {
    node[key] ??= {};
    node = node[key] as Record<string, unknown>;
  }
  node[path[path.length - 1]] = value;
}

/**
 * settingsOfFlags(argv, properties) is the settings the user gave on the command line: one
 * key per flag present in argv (absent flags are left out, so the schema's defaults apply
 * when the settings are validated), comma-separated flags split into numbers. Throws
 * InputError naming the flag for a malformed comma-separated value. O(keys).
 * @param argv the parsed arguments
 * @param properties the settings schema's properties the options were made from
 * @returns the given settings, to be validated by the schema
 * @example settingsOfFlags({ tolerance: 0.1 }, auditSettingsSchema.properties) // { tolerance: 0.1 }
 */
export function settingsOfFlags(
  argv: Readonly<Record<string, unknown>>,
  properties: SchemaProperties,
): Record<string, unknown> {
  const settings: Record<string, unknown> = {};
  for (const { path, flag, tupleKeys, numberList } of settingFlags(properties)) {
    const value = argv[flag];
    if (value === undefined) continue;
    if (tupleKeys !== undefined) {
      const numbers = numbersOf(flag, String(value), tupleKeys);
      setAt(settings, path, Object.fromEntries(tupleKeys.map((key, i) => [key, numbers[i]])));
    } else if (numberList) setAt(settings, path, numbersOf(flag, String(value)));
    else setAt(settings, path, value);
  }
  return settings;
}

/**
 * flagOfKey(properties, key, extra) is the flag of a settings key path as a message names
 * it ("calibration.baseRates.2" → "--calibration-base-rates", "scoreTolerance" →
 * "--score-tolerance"); `extra` names keys that flags of their own set (e.g.
 * "thresholds.upper" → "--upper"). A key no flag sets is returned as it is. O(depth).
 * @param properties the settings schema's properties
 * @param key a dotted key path, as a validation message gives it
 * @param extra flags of keys outside the schema's own flags
 * @returns the flag, e.g. "--score-tolerance"
 * @example flagOfKey(auditSettingsSchema.properties, 'scoreTolerance') // '--score-tolerance'
 */
export function flagOfKey(
  properties: SchemaProperties,
  key: string,
  extra: Readonly<Record<string, string>> = {},
): string {
  if (Object.hasOwn(extra, key)) return extra[key];
  const parts = key.split('.');
  for (const { path, flag } of settingFlags(properties)) {
    if (path.every((part, i) => parts[i] === part)) return `--${flag}`;
  }
  const top = parts[0];
  if (Object.hasOwn(properties, top) && properties[top].type === 'object') return `--${kebabCase(top)}`;
  return key;
}

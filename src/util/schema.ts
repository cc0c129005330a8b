import { closestName } from './closest-name.js';
import { describeFound, InputError } from './errors.js';

/**
 * A small schema language for experiment configs. One schema object per experiment
 * kind is the single source of truth: the TypeScript type of the settings
 * (`Infer<typeof schema>`), validation with defaults, and the generated reference of
 * config keys (docs/config-reference.md) all come from it.
 */
export type Schema =
  | NumberSchema
  | StringSchema
  | EnumSchema<string>
  | BooleanSchema
  | ArraySchema<Schema>
  | ObjectSchema<Record<string, Schema>>
  | SeedSchema
  | OneOfSchema<readonly Schema[]>;

interface BaseSchema {
  /** What the key means, in a sentence (goes into the reference). */
  readonly description: string;
  /** Filled in when the key is absent; a key without default and not optional is required. */
  readonly default?: unknown;
  /** The key may be absent (the value is then undefined). */
  readonly optional?: boolean;
  /** The value may be null (e.g. a number JSON cannot hold, or "no value" in an output). */
  readonly nullable?: boolean;
}

export interface NumberSchema extends BaseSchema {
  readonly type: 'number';
  readonly integer?: boolean;
  readonly minimum?: number;
  readonly maximum?: number;
  /** When true, minimum itself is excluded. */
  readonly exclusiveMinimum?: boolean;
  /** When true, maximum itself is excluded. */
  readonly exclusiveMaximum?: boolean;
}

export interface StringSchema extends BaseSchema {
  readonly type: 'string';
  readonly pattern?: RegExp;
  /** The pattern in words, for messages ("lower-case letters, digits and -"). */
  readonly patternText?: string;
}

export interface EnumSchema<V extends string> extends BaseSchema {
  readonly type: 'enum';
  readonly values: readonly V[];
}

export interface BooleanSchema extends BaseSchema {
  readonly type: 'boolean';
}

/** A master seed: a non-negative integer or a non-empty string, kept as a string. */
export interface SeedSchema extends BaseSchema {
  readonly type: 'seed';
}

export interface ArraySchema<S extends Schema> extends BaseSchema {
  readonly type: 'array';
  readonly items: S;
  readonly minItems?: number;
  readonly maxItems?: number;
}

export interface ObjectSchema<P extends Record<string, Schema>> extends BaseSchema {
  readonly type: 'object';
  readonly properties: P;
  /** Exactly one of these keys must be present (e.g. a pool from a file or synthetic). */
  readonly exactlyOneOf?: readonly (keyof P & string)[];
  /** Keys beyond `properties` are allowed and kept as given (checked elsewhere). */
  readonly open?: boolean;
  /**
   * A check across keys after each key is valid. Returns undefined when fine, or the
   * problem: the key it concerns (relative to this object), expected, found.
   */
  readonly check?: (value: Record<string, unknown>) => CrossKeyProblem | undefined;
}

/**
 * A value of one of several shapes, e.g. `thresholds: wald | calibrated | {upper, lower}`
 * (an enum or a mapping). A string is checked against the first enum or string option, a
 * mapping against the first object option (so its messages name the inner key); anything
 * else must pass one of the options, tried in order.
 */
export interface OneOfSchema<O extends readonly Schema[]> extends BaseSchema {
  readonly type: 'oneOf';
  readonly options: O;
}

export interface CrossKeyProblem {
  key: string;
  expected: string;
  found: unknown;
}

type Simplify<T> = { [K in keyof T]: T[K] } & {};
type OptionalKeys<P> = { [K in keyof P]: P[K] extends { optional: true } ? K : never }[keyof P];

/** The TypeScript type of the values a schema accepts (after defaults are filled in). */
export type Infer<S> = S extends NumberSchema
  ? number
  : S extends EnumSchema<infer V>
    ? V
    : S extends StringSchema
      ? string
      : S extends BooleanSchema
        ? boolean
        : S extends SeedSchema
          ? string
          : S extends ArraySchema<infer I>
            ? Infer<I>[]
            : S extends OneOfSchema<infer O>
              ? readonly Schema[] extends O
                ? unknown
                : Infer<O[number]>
              : S extends ObjectSchema<infer P>
                ? Simplify<
                    { [K in Exclude<keyof P, OptionalKeys<P>>]: Infer<P[K]> } & {
                      [K in OptionalKeys<P>]?: Infer<P[K]>;
                    }
                  >
                : never;

/** The builders: each returns its argument with the type tag, so `Infer` can read it. */
export const schema = {
  number: (options: Omit<NumberSchema, 'type'>): NumberSchema => ({ type: 'number', ...options }),
  integer: (options: Omit<NumberSchema, 'type' | 'integer'>): NumberSchema => ({
    type: 'number',
    integer: true,
    ...options,
  }),
  string: (options: Omit<StringSchema, 'type'>): StringSchema => ({ type: 'string', ...options }),
  enumOf: <const V extends string>(values: readonly V[], options: Omit<EnumSchema<V>, 'type' | 'values'>) =>
    ({ type: 'enum', values, ...options }) as EnumSchema<V>,
  boolean: (options: Omit<BooleanSchema, 'type'>): BooleanSchema => ({ type: 'boolean', ...options }),
  seed: (options: Omit<SeedSchema, 'type'>): SeedSchema => ({ type: 'seed', ...options }),
  array: <S extends Schema>(items: S, options: Omit<ArraySchema<S>, 'type' | 'items'>): ArraySchema<S> => ({
    type: 'array',
    items,
    ...options,
  }),
  object: <const P extends Record<string, Schema>>(
    properties: P,
    options: Omit<ObjectSchema<P>, 'type' | 'properties'>,
  ): ObjectSchema<P> => ({ type: 'object', properties, ...options }),
  optional: <S extends Schema>(inner: S): S & { optional: true } => ({ ...inner, optional: true }),
  nullable: <S extends Schema>(inner: S): S & { nullable: true } => ({ ...inner, nullable: true }),
  oneOf: <const O extends readonly Schema[]>(
    options: O,
    rest: Omit<OneOfSchema<O>, 'type' | 'options'>,
  ): OneOfSchema<O> => ({
    type: 'oneOf',
    options,
    ...rest,
  }),
};

/** One problem found by validate(): the key path, what was expected, what was found. */
export interface SchemaProblem {
  path: (string | number)[];
  expected: string;
  /** The found value, already in words. */
  found: string;
}

/** Thrown by validate() at the first problem; config.ts turns it into an InputError. */
export class SchemaViolation extends Error {
  constructor(readonly problem: SchemaProblem) {
    super(`${formatPath(problem.path)}: expected ${problem.expected}, found ${problem.found}`);
  }
}

/** Formats a key path the way a user would write it: settings.pool.synthetic.size, grid.tolerance[1]. */
export function formatPath(path: readonly (string | number)[]): string {
  let text = '';
  for (const part of path) {
    if (typeof part === 'number') text += `[${part}]`;
    else text += text === '' ? part : `.${part}`;
  }
  return text === '' ? '(top level)' : text;
}

/** The expected value of a schema in words, as messages and the reference say it. */
export function describeExpected(s: Schema): string {
  return s.nullable ? `${describeShape(s)}, or null` : describeShape(s);
}

function describeShape(s: Schema): string {
  switch (s.type) {
    case 'number': {
      const kind = s.integer ? 'an integer' : 'a number';
      const hasMin = s.minimum !== undefined;
      const hasMax = s.maximum !== undefined;
      if (hasMin && hasMax) {
        const open = s.exclusiveMinimum ? '(' : '[';
        const close = s.exclusiveMaximum ? ')' : ']';
        return `${kind} in ${open}${s.minimum}, ${s.maximum}${close}`;
      }
      if (hasMin) return `${kind} ${s.exclusiveMinimum ? '>' : '≥'} ${s.minimum}`;
      if (hasMax) return `${kind} ${s.exclusiveMaximum ? '<' : '≤'} ${s.maximum}`;
      return kind;
    }
    case 'string':
      return s.patternText ? `a string of ${s.patternText}` : 'a string';
    case 'enum':
      return `one of ${s.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'boolean':
      return 'true or false';
    case 'seed':
      return 'a non-negative integer or a non-empty string';
    case 'array': {
      const count =
        s.minItems !== undefined && s.minItems === s.maxItems
          ? `${s.minItems} `
          : s.minItems !== undefined && s.minItems > 0
            ? `at least ${s.minItems} `
            : '';
      return `a list of ${count}values, each ${describeExpected(s.items)}`;
    }
    case 'object':
      if (s.exactlyOneOf) return `a mapping with exactly one of ${s.exactlyOneOf.join(', ')}`;
      return Object.keys(s.properties).length > 0
        ? `a mapping with keys ${Object.keys(s.properties).join(', ')}`
        : 'a mapping';
    case 'oneOf':
      return s.options.map(describeExpected).join(', or ');
  }
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `the list ${describeFound(value)}`;
  if (typeof value === 'object') return `the mapping ${describeFound(value)}`;
  if (typeof value === 'string') return `the string ${describeFound(value)}`;
  return `${typeof value} ${describeFound(value)}`;
}

function fail(path: (string | number)[], expected: string, found: string): never {
  throw new SchemaViolation({ path, expected, found });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * validate(value, schema, path) checks a value parsed from YAML against a schema and
 * returns it with defaults filled in (fresh objects without prototypes; the input is
 * not changed). Keys are matched as own properties, so `constructor` or `toString` is
 * an unknown key like any other.
 * Unknown keys, wrong types and out-of-range values throw a SchemaViolation naming
 * the key path, what was expected and what was found, with a "did you mean" for a
 * misspelt key or enum value. Runs in O(size of the value).
 */
export function validate<S extends Schema>(value: unknown, s: S, path: (string | number)[] = []): Infer<S> {
  return validateAny(value, s, path) as Infer<S>;
}

function validateAny(value: unknown, s: Schema, path: (string | number)[]): unknown {
  if (value === null && s.nullable) return null;
  switch (s.type) {
    case 'number': {
      if (typeof value !== 'number' || Number.isNaN(value)) fail(path, describeExpected(s), kindOf(value));
      const outside =
        (s.integer && !Number.isInteger(value)) ||
        !Number.isFinite(value) ||
        (s.minimum !== undefined && (s.exclusiveMinimum ? value <= s.minimum : value < s.minimum)) ||
        (s.maximum !== undefined && (s.exclusiveMaximum ? value >= s.maximum : value > s.maximum));
      if (outside) fail(path, describeExpected(s), describeFound(value));
      return value;
    }
    case 'string': {
      if (typeof value !== 'string') fail(path, describeExpected(s), kindOf(value));
      if (s.pattern && !s.pattern.test(value)) fail(path, describeExpected(s), describeFound(value));
      return value;
    }
    case 'enum': {
      if (typeof value !== 'string' || !s.values.includes(value)) {
        const hint = typeof value === 'string' ? closestName(value, s.values) : undefined;
        fail(
          path,
          describeExpected(s) + (hint ? ` (did you mean ${JSON.stringify(hint)}?)` : ''),
          typeof value === 'string' ? describeFound(value) : kindOf(value),
        );
      }
      return value;
    }
    case 'boolean':
      if (typeof value !== 'boolean') fail(path, describeExpected(s), kindOf(value));
      return value;
    case 'seed':
      if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
      if (typeof value === 'string' && value.length > 0) return value;
      fail(path, describeExpected(s), kindOf(value));
      break;
    case 'array': {
      if (!Array.isArray(value)) fail(path, describeExpected(s), kindOf(value));
      if (
        (s.minItems !== undefined && value.length < s.minItems) ||
        (s.maxItems !== undefined && value.length > s.maxItems)
      ) {
        fail(path, describeExpected(s), `a list of ${value.length} values ${describeFound(value)}`);
      }
      return value.map((item, index) => validateAny(item, s.items, [...path, index]));
    }
    case 'object':
      return validateObject(value, s, path);
    case 'oneOf':
      return validateOneOf(value, s, path);
  }
}

function validateOneOf(value: unknown, s: OneOfSchema<readonly Schema[]>, path: (string | number)[]): unknown {
  const matching =
    typeof value === 'string'
      ? s.options.find((option) => option.type === 'enum' || option.type === 'string')
      : isPlainObject(value)
        ? s.options.find((option) => option.type === 'object')
        : undefined;
  if (matching !== undefined) return validateAny(value, matching, path);
  for (const option of s.options) {
    try {
      return validateAny(value, option, path);
    } catch (error) {
      if (!(error instanceof SchemaViolation)) throw error;
    }
  }
  return fail(path, describeExpected(s), kindOf(value));
}

function validateObject(
  value: unknown,
  s: ObjectSchema<Record<string, Schema>>,
  path: (string | number)[],
): Record<string, unknown> {
  if (!isPlainObject(value)) fail(path, describeExpected(s), kindOf(value));
  const known = Object.keys(s.properties);
  for (const key of Object.keys(value)) {
    if (!Object.hasOwn(s.properties, key) && !s.open) {
      const hint = closestName(key, known);
      fail(
        [...path, key],
        `one of the keys ${known.join(', ')}${hint ? ` (did you mean ${JSON.stringify(hint)}?)` : ''}`,
        `the unknown key ${JSON.stringify(key)}`,
      );
    }
  }
  if (s.exactlyOneOf) {
    const present = s.exactlyOneOf.filter((key) => value[key] !== undefined);
    if (present.length !== 1) {
      fail(
        path,
        `exactly one of the keys ${s.exactlyOneOf.join(', ')}`,
        present.length === 0 ? 'none of them' : `${present.join(' and ')}`,
      );
    }
  }
  // Without a prototype: no key of the settings, even a misspelt one read later, reaches Object.prototype.
  const result: Record<string, unknown> = Object.create(null);
  if (s.open) Object.assign(result, value);
  for (const key of known) {
    const property = s.properties[key];
    const given = value[key];
    if (given === null && property.nullable) {
      result[key] = null;
      continue;
    }
    if (given === undefined || given === null) {
      if (given === null && !property.optional && property.default === undefined) {
        fail([...path, key], describeExpected(property), 'null');
      }
      if (property.default !== undefined) result[key] = structuredClone(property.default);
      else if (!property.optional && !(s.exactlyOneOf as string[] | undefined)?.includes(key)) {
        fail([...path, key], describeExpected(property), 'nothing (the key is required)');
      }
      continue;
    }
    result[key] = validateAny(given, property, [...path, key]);
  }
  const problem = s.check?.(result);
  if (problem) fail([...path, problem.key], problem.expected, describeFound(problem.found));
  return result;
}

/**
 * validateInput(value, s, name) is validate(value, s) for input a user wrote (a flag,
 * a JSON argument, an object built in code): a violation becomes an InputError whose
 * message starts with name(path), the words that locate the key for the user (a flag,
 * "file: key"). O(size of value).
 */
export function validateInput<S extends Schema>(
  value: unknown,
  s: S,
  name: (path: readonly (string | number)[]) => string,
): Infer<S> {
  try {
    return validate(value, s);
  } catch (error) {
    if (!(error instanceof SchemaViolation)) throw error;
    throw new InputError(
      `${name(error.problem.path)}: expected ${error.problem.expected}, found ${error.problem.found}`,
    );
  }
}

/**
 * schemaAt(schema, keys) returns the schema of a nested key (e.g. ["pool", "synthetic",
 * "size"]), or undefined when no such key exists. Used to check grid keys.
 */
export function schemaAt(s: Schema, keys: readonly string[]): Schema | undefined {
  let current: Schema | undefined = s;
  for (const key of keys) {
    if (current?.type !== 'object' || !Object.hasOwn(current.properties, key)) return undefined;
    current = current.properties[key];
  }
  return current;
}

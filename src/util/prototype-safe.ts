import { InputError } from './errors.js';

/**
 * Keys that would reach Object.prototype (or a constructor's prototype) when data is
 * merged or set along a path: `--set __proto__.outDirectory=DIR` once wrote into
 * Object.prototype and redirected a run's output. Refused everywhere in user data.
 */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** The deepest nesting accepted in user data (configs nest 4 or 5 deep): deeper is refused, not a stack overflow. */
export const MAX_NESTING = 64;

function formatKeyPath(path: readonly (string | number)[]): string {
  let text = '';
  for (const part of path) text += typeof part === 'number' ? `[${part}]` : text === '' ? part : `.${part}`;
  return text === '' ? '(top level)' : text;
}

/**
 * assertKeyPathSafe(path, where) refuses a key path (a `--set` key split at dots, a
 * grid axis) that holds `__proto__`, `constructor` or `prototype`, with InputError
 * naming `where` and the key path. O(path length).
 */
export function assertKeyPathSafe(path: readonly string[], where: string): void {
  const index = path.findIndex((part) => FORBIDDEN_KEYS.has(part));
  if (index >= 0) throw reservedKey(path.slice(0, index + 1), where);
}

/** The InputError for a reserved key at the end of path. */
function reservedKey(path: readonly (string | number)[], where: string): InputError {
  return new InputError(
    `${where}: ${formatKeyPath(path)}: expected a setting key, found the reserved ` +
      `key ${JSON.stringify(path[path.length - 1])} (__proto__, constructor and prototype are refused)`,
  );
}

/**
 * assertPrototypeSafe(value, where) walks parsed data (from JSON, YAML or a flag) and
 * throws InputError naming `where` and the key path of the first `__proto__`,
 * `constructor` or `prototype` key at any depth, or of nesting deeper than
 * MAX_NESTING. O(size of value).
 */
export function assertPrototypeSafe(value: unknown, where: string): void {
  const walk = (node: unknown, path: (string | number)[]): void => {
    if (typeof node !== 'object' || node === null) return;
    if (path.length >= MAX_NESTING) {
      throw new InputError(
        `${where}: ${formatKeyPath(path)}: expected data nested at most ${MAX_NESTING} deep, found deeper nesting`,
      );
    }
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) walk(node[i], [...path, i]);
      return;
    }
    for (const key of Object.keys(node)) {
      if (FORBIDDEN_KEYS.has(key)) throw reservedKey([...path, key], where);
      walk((node as Record<string, unknown>)[key], [...path, key]);
    }
  };
  walk(value, []);
}

/**
 * withoutPrototypes(value) copies plain data with every object made by
 * Object.create(null), so that no key of it, even a misspelt one read later, can
 * reach Object.prototype; arrays stay arrays, other values are kept. Call it on data
 * that passed assertPrototypeSafe. O(size of value).
 */
export function withoutPrototypes<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => withoutPrototypes(item)) as T;
  if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) return value;
  const copy = Object.create(null) as Record<string, unknown>;
  for (const [key, item] of Object.entries(value)) copy[key] = withoutPrototypes(item);
  return copy as T;
}

import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/util/errors.js';
import {
  assertKeyPathSafe,
  assertPrototypeSafe,
  MAX_NESTING,
  withoutPrototypes,
} from '../../src/util/prototype-safe.js';

describe('assertKeyPathSafe(path, where)', () => {
  it(
    'accepts setting paths and refuses __proto__, constructor and prototype at any position, naming the key ' + 'path',
    () => {
      expect(() => assertKeyPathSafe(['settings', 'pool', 'synthetic', 'size'], '--set x')).not.toThrow();
      expect(() => assertKeyPathSafe(['__proto__', 'outDirectory'], '--set __proto__.outDirectory=DIR')).toThrow(
        new InputError(
          '--set __proto__.outDirectory=DIR: __proto__: expected a setting key, found the reserved key "__proto__" ' +
            '(__proto__, constructor and prototype are refused)',
        ),
      );
      expect(() => assertKeyPathSafe(['settings', 'pool', 'constructor', 'prototype'], 'where')).toThrow(
        /where: settings\.pool\.constructor: expected a setting key, found the reserved key "constructor"/,
      );
      expect(() => assertKeyPathSafe(['grid', 'prototype'], 'w')).toThrow(/w: grid\.prototype: .*"prototype"/);
    },
  );
});

describe('assertPrototypeSafe(value, where)', () => {
  it(
    'accepts plain data, and refuses a reserved key at any depth (as JSON.parse makes it: an own property) ' +
      'naming its path',
    () => {
      expect(() => assertPrototypeSafe({ a: [1, { b: 'c' }], d: null }, 'x.json')).not.toThrow();
      const parsed = JSON.parse('{"settings": {"pools": [{"name": "a"}, {"__proto__": {"polluted": true}}]}}');
      expect(() => assertPrototypeSafe(parsed, 'x.json')).toThrow(
        /^x\.json: settings\.pools\[1\]\.__proto__: expected a setting key, found the reserved key "__proto__"/,
      );
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(() => assertPrototypeSafe({ constructor: { prototype: 1 } }, 'y')).toThrow(/^y: constructor: /);
    },
  );

  it(
    `refuses nesting deeper than MAX_NESTING (${MAX_NESTING}) with InputError instead of overflowing the ` + `stack`,
    () => {
      let deep: unknown = 1;
      for (let i = 0; i < 100_000; i++) deep = [deep];
      expect(() => assertPrototypeSafe(deep, 'deep.json')).toThrow(
        new RegExp(`^deep\\.json: (\\[0\\]){${MAX_NESTING}}: expected data nested at most ${MAX_NESTING} deep`),
      );
      let ok: unknown = 1;
      for (let i = 0; i < MAX_NESTING; i++) ok = [ok];
      expect(() => assertPrototypeSafe(ok, 'ok.json')).not.toThrow();
    },
  );
});

describe('withoutPrototypes(value)', () => {
  it(
    'copies objects at every depth with a null prototype, keeps arrays and scalars, and leaves the input ' +
      'unchanged',
    () => {
      const input = { a: { b: [1, { c: 'd' }] }, e: null, f: 'g' };
      const copy = withoutPrototypes(input);
      expect(Object.getPrototypeOf(copy)).toBeNull();
      expect(Object.getPrototypeOf(copy.a)).toBeNull();
      expect(Array.isArray(copy.a.b)).toBe(true);
      expect(Object.getPrototypeOf(copy.a.b[1])).toBeNull();
      expect(JSON.stringify(copy)).toBe(JSON.stringify(input));
      expect(Object.getPrototypeOf(input.a)).toBe(Object.prototype);
      // A key a config never had reads as undefined, not as an inherited function.
      expect((copy as Record<string, unknown>).toString).toBeUndefined();
    },
  );
});

import { describe, expect, it } from 'vitest';
import { closestName, editDistance } from '../../src/util/closest-name.js';
import { SchemaViolation, schema, validate } from '../../src/util/schema.js';

const example = schema.object(
  {
    rate: schema.number({ minimum: 0, maximum: 1, exclusiveMinimum: true, default: 0.5, description: 'a rate' }),
    count: schema.integer({ minimum: 1, description: 'a count' }),
    mode: schema.enumOf(['fast', 'exact'], { default: 'exact', description: 'a mode' }),
    note: schema.optional(schema.string({ description: 'a note' })),
    pair: schema.array(schema.number({ description: 'x' }), {
      minItems: 2,
      maxItems: 2,
      default: [0, 1],
      description: 'two numbers',
    }),
  },
  { description: 'example' },
);

function problemOf(value: unknown): string {
  try {
    validate(value, example);
  } catch (error) {
    if (error instanceof SchemaViolation) return error.message;
    throw error;
  }
  return 'no problem';
}

describe('validate(value, schema)', () => {
  it('fills defaults and keeps given values; optional keys stay absent', () => {
    expect(validate({ count: 3 }, example)).toEqual({ rate: 0.5, count: 3, mode: 'exact', pair: [0, 1] });
    expect(validate({ count: 3, rate: 1, mode: 'fast', note: 'n' }, example)).toEqual({
      rate: 1,
      count: 3,
      mode: 'fast',
      note: 'n',
      pair: [0, 1],
    });
  });
  it('names the key path, what was expected and what was found', () => {
    expect(problemOf({ count: 3, rate: 0 })).toBe('rate: expected a number in (0, 1], found 0');
    expect(problemOf({ count: 0 })).toBe('count: expected an integer ≥ 1, found 0');
    expect(problemOf({ count: 2.5 })).toBe('count: expected an integer ≥ 1, found 2.5');
    expect(problemOf({})).toBe('count: expected an integer ≥ 1, found nothing (the key is required)');
    expect(problemOf({ count: 1, rate: Number.NaN })).toBe('rate: expected a number in (0, 1], found number NaN');
    expect(problemOf({ count: 1, rate: Number.POSITIVE_INFINITY })).toBe(
      'rate: expected a number in (0, 1], found Infinity',
    );
    expect(problemOf({ count: 1, pair: [1, 'x'] })).toBe('pair[1]: expected a number, found the string "x"');
    expect(problemOf({ count: 1, mode: 'fsat' })).toBe(
      'mode: expected one of "fast", "exact" (did you mean "fast"?), found "fsat"',
    );
    expect(problemOf({ count: 1, cuont: 2 })).toContain(
      'cuont: expected one of the keys rate, count, mode, note, pair (did you mean "count"?)',
    );
    expect(problemOf('text')).toBe(
      '(top level): expected a mapping with keys rate, count, mode, note, pair, found the string "text"',
    );
  });
});

describe('closestName(word, candidates)', () => {
  it('suggests a near spelling and nothing for an unrelated word', () => {
    expect(closestName('tolerence', ['tolerance', 'budget'])).toBe('tolerance');
    expect(closestName('Budget', ['tolerance', 'budget'])).toBe('budget');
    expect(closestName('bugdet', ['tolerance', 'budget'])).toBe('budget');
    expect(closestName('zzzzzz', ['tolerance', 'budget'])).toBeUndefined();
  });
  it('editDistance counts an adjacent transposition as one edit', () => {
    expect(editDistance('ab', 'ba')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });
});

describe('validate(value, schema.oneOf([enum, object]))', () => {
  const thresholds = schema.oneOf(
    [
      schema.enumOf(['wald', 'calibrated'], { description: 'named' }),
      schema.object(
        { upper: schema.number({ description: 'u' }), lower: schema.number({ description: 'l' }) },
        { description: 'given' },
      ),
    ],
    { description: 'thresholds' },
  );
  const holder = schema.object({ thresholds: schema.optional(thresholds) }, { description: 'holder' });

  it('accepts a string of the enum and a mapping of the object, as given', () => {
    expect(validate({ thresholds: 'calibrated' }, holder)).toEqual({ thresholds: 'calibrated' });
    expect(validate({ thresholds: { upper: 5, lower: -2 } }, holder)).toEqual({ thresholds: { upper: 5, lower: -2 } });
    expect(validate({}, holder)).toEqual({});
  });

  it(
    'names the inner problem: a misspelt name (with a hint), a bad key of the mapping, and a value of neither ' +
      'shape',
    () => {
      expect(() => validate({ thresholds: 'wlad' }, holder)).toThrow(
        /thresholds: expected one of "wald", "calibrated" \(did you mean "wald"\?\), found "wlad"/,
      );
      expect(() => validate({ thresholds: { upper: 'x', lower: -2 } }, holder)).toThrow(
        /thresholds\.upper: expected a number, found the string "x"/,
      );
      expect(() => validate({ thresholds: 3 }, holder)).toThrow(
        /thresholds: expected one of "wald", "calibrated", or a mapping with keys upper, lower, found number 3/,
      );
    },
  );
});

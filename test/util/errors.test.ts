import { describe, expect, it } from 'vitest';
import {
  describeFound,
  InputError,
  inputError,
  MAX_MESSAGE_CHARACTERS,
  MAX_QUOTED_CHARACTERS,
  shortenText,
} from '../../src/util/errors.js';

describe('describeFound(value)', () => {
  it('quotes a short string whole, as JSON', () => {
    expect(describeFound('eo')).toBe('"eo"');
    expect(describeFound('a\nb')).toBe('"a\\nb"');
  });

  it('quotes at most MAX_QUOTED_CHARACTERS of a 45-million-character string and gives its length', () => {
    const text = describeFound('X'.repeat(45_000_000));
    expect(text).toBe(`"${'X'.repeat(MAX_QUOTED_CHARACTERS)}…" (45000000 characters)`);
  });

  it('counts escapes against the limit and never cuts one in half (10 KB of control characters)', () => {
    const text = describeFound('\u0001'.repeat(10_000));
    const inside = text.slice(1, text.indexOf('…'));
    expect(inside.length).toBeLessThanOrEqual(MAX_QUOTED_CHARACTERS);
    expect(inside).toBe('\\u0001'.repeat(Math.floor(MAX_QUOTED_CHARACTERS / 6)));
    expect(text.endsWith('…" (10000 characters)')).toBe(true);
  });

  it('keeps a backslash escape whole at the cut', () => {
    const text = describeFound(`${'a'.repeat(MAX_QUOTED_CHARACTERS - 1)}\\\\\\`);
    expect(text).toBe(`"${'a'.repeat(MAX_QUOTED_CHARACTERS - 1)}…" (${MAX_QUOTED_CHARACTERS + 2} characters)`);
  });

  it('cuts the JSON of a large array or object at MAX_QUOTED_CHARACTERS', () => {
    const text = describeFound(Array.from({ length: 10_000 }, (_, i) => i));
    expect(text.length).toBe(MAX_QUOTED_CHARACTERS);
    expect(text.endsWith('...')).toBe(true);
  });

  it('says nothing for undefined and writes non-finite numbers as words', () => {
    expect(describeFound(undefined)).toBe('nothing');
    expect(describeFound(Number.NaN)).toBe('NaN');
    expect(describeFound(Number.NEGATIVE_INFINITY)).toBe('-Infinity');
  });
});

describe('new InputError(message)', () => {
  it('keeps a message of at most MAX_MESSAGE_CHARACTERS as it is', () => {
    const message = `x.yaml: ${'k'.repeat(MAX_MESSAGE_CHARACTERS - 8)}`;
    expect(new InputError(message).message).toBe(message);
  });

  it('shortens a 4-million-character message to its head and tail with a count of what was left out', () => {
    const message = `row.csv: row 1: expected 0 or 1, found "${'2'.repeat(4_000_000)}" (end)`;
    const error = new InputError(message);
    expect(error.message.length).toBeLessThan(MAX_MESSAGE_CHARACTERS + 60);
    expect(error.message.startsWith('row.csv: row 1: expected 0 or 1, found "222')).toBe(true);
    expect(error.message.endsWith('222" (end)')).toBe(true);
    expect(error.message).toMatch(/…\[\d+ characters left out\]…/);
  });

  it('inputError({where, expected, found}) with a 4 MB found value gives a message under 400 characters', () => {
    const error = inputError({
      where: 'row.csv: row 1 (line 2), column "decision"',
      expected: '0 or 1',
      found: '2'.repeat(4_000_000),
    });
    expect(error.message.length).toBeLessThan(400);
    expect(error.exitCode).toBe(2);
  });
});

describe('shortenText(text, limit)', () => {
  it('returns text of at most limit characters unchanged, and otherwise head, count and tail', () => {
    expect(shortenText('abc', 3)).toBe('abc');
    expect(shortenText('abcdefghij', 5)).toBe('abcd …[5 characters left out]… j');
  });
});

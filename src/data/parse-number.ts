import { inputError } from '../util/errors.js';

/**
 * A plain decimal number: sign, digits with an optional point, optional exponent.
 * Number() alone also reads "0x10" (16), "0b1" and "0o7", which no data file means.
 */
const DECIMAL_NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * parseNumberField(text, where) parses a decimal number written in a data file
 * ("39", "-1.5", "1e3"); blanks around it are ignored. Throws InputError naming
 * `where` (file, line, column) for anything else, including an empty field and the
 * hexadecimal, binary and octal literals that Number() would accept.
 */
export function parseNumberField(text: string, where: string): number {
  const trimmed = text.trim();
  const value = DECIMAL_NUMBER.test(trimmed) ? Number(trimmed) : Number.NaN;
  if (!Number.isFinite(value)) throw inputError({ where, expected: 'a number', found: text });
  return value;
}

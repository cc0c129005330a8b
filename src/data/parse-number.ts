import { inputError } from '../util/errors.js';

/**
 * parseNumberField(text, where) parses a decimal number written in a data file
 * ("39", "-1.5", "1e3"); blanks around it are ignored. Throws InputError naming
 * `where` (file, line, column) for anything else, including an empty field.
 */
export function parseNumberField(text: string, where: string): number {
  const trimmed = text.trim();
  const value = trimmed === '' ? Number.NaN : Number(trimmed);
  if (!Number.isFinite(value)) throw inputError({ where, expected: 'a number', found: text });
  return value;
}

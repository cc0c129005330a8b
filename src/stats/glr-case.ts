import { inputError } from '../util/errors.js';
import { parseJsonUntrusted } from '../util/parse-untrusted.js';
import { bernoulliGlrKernel } from './bernoulli-glr.js';
import { checkTolerance } from './check-tolerance.js';
import { gaussianGlr } from './gaussian-glr.js';

/** The fields of one GLR case, as `fairaudit glr --input` reads them (snake case, as in the issue). */
export const BERNOULLI_CASE_FIELDS = ['n_a', 's_a', 'n_b', 's_b', 'tolerance'] as const;
export const GAUSSIAN_CASE_FIELDS = ['n_a', 'sum_a', 'sumsq_a', 'n_b', 'sum_b', 'sumsq_b', 'tolerance'] as const;
export type GlrFamily = 'bernoulli' | 'gaussian';

/**
 * A plain decimal string: sign, digits with an optional point, optional exponent.
 * Number() alone also reads "0x10" (16), "0b1" and "0o7", which no case means.
 */
const DECIMAL_NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * evaluateGlrCase(family, fields, where) validates one case and returns its signed GLR
 * statistic: bernoulli needs integers n_a, n_b >= 1, s_a in [0, n_a], s_b in [0, n_b]
 * and tolerance in (0, 1); gaussian needs integers n_a, n_b >= 1, finite sums, sums of
 * squares at least sum^2/n, and tolerance > 0. Fields may be numbers or decimal
 * strings (as flags arrive; "0x10" and other non-decimal literals are rejected).
 * `where(field)` names a field in messages (a flag or a line of a file). O(1).
 * Throws InputError naming the first missing or bad field.
 */
export function evaluateGlrCase(
  family: GlrFamily,
  fields: Readonly<Record<string, unknown>>,
  where: (field: string) => string,
): number {
  const number = (field: string): number => {
    const raw = fields[field];
    const value =
      typeof raw === 'number'
        ? raw
        : typeof raw === 'string' && DECIMAL_NUMBER.test(raw.trim())
          ? Number(raw)
          : Number.NaN;
    if (!Number.isFinite(value)) throw inputError({ where: where(field), expected: 'a finite number', found: raw });
    return value;
  };
  const count = (field: string, low: number, high: number): number => {
    const value = number(field);
    if (!(Number.isSafeInteger(value) && value >= low && value <= high)) {
      throw inputError({ where: where(field), expected: `an integer in [${low}, ${high}]`, found: fields[field] });
    }
    return value;
  };
  if (family === 'bernoulli') {
    const countA = count('n_a', 1, Number.MAX_SAFE_INTEGER);
    const positivesA = count('s_a', 0, countA);
    const countB = count('n_b', 1, Number.MAX_SAFE_INTEGER);
    const positivesB = count('s_b', 0, countB);
    const tolerance = number('tolerance');
    checkTolerance(tolerance, where('tolerance'));
    return bernoulliGlrKernel(countA, positivesA, countB, positivesB, tolerance);
  }
  const countA = count('n_a', 1, Number.MAX_SAFE_INTEGER);
  const sumA = number('sum_a');
  const sumOfSquaresA = number('sumsq_a');
  const countB = count('n_b', 1, Number.MAX_SAFE_INTEGER);
  const sumB = number('sum_b');
  const sumOfSquaresB = number('sumsq_b');
  const tolerance = number('tolerance');
  checkTolerance(tolerance, where('tolerance'), Number.POSITIVE_INFINITY);
  for (const [field, sum, squares, n] of [
    ['sumsq_a', sumA, sumOfSquaresA, countA],
    ['sumsq_b', sumB, sumOfSquaresB, countB],
  ] as const) {
    if (squares - (sum * sum) / n < -1e-9 * Math.max(1, squares)) {
      throw inputError({
        where: where(field),
        expected: `at least sum^2/n = ${(sum * sum) / n}`,
        found: fields[field],
      });
    }
  }
  return gaussianGlr({ countA, sumA, sumOfSquaresA, countB, sumB, sumOfSquaresB }, tolerance);
}

/**
 * glrCaseFromJson(line, where) parses one line of a `fairaudit glr --input` file:
 * a JSON object with "family" ("bernoulli" or "gaussian") and that family's fields.
 * Returns the parsed record, its family and its statistic. O(line length).
 * Throws InputError naming `where` (file and line) and the bad field.
 */
export function glrCaseFromJson(
  line: string,
  where: string,
): { record: Record<string, unknown>; family: GlrFamily; glr: number } {
  const record = parseJsonUntrusted(line, where, 'a JSON object');
  if (typeof record !== 'object' || record === null || Array.isArray(record)) {
    throw inputError({ where, expected: 'a JSON object', found: line });
  }
  const fields = record as Record<string, unknown>;
  const family = fields.family;
  if (family !== 'bernoulli' && family !== 'gaussian') {
    throw inputError({ where: `${where}, field "family"`, expected: '"bernoulli" or "gaussian"', found: family });
  }
  const glr = evaluateGlrCase(family, fields, (field) => `${where}, field "${field}"`);
  return { record: fields, family, glr };
}

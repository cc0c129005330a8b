import { errorLevelsProblem } from '../stats/thresholds.js';
import { inputError } from '../util/errors.js';

/**
 * The range a number flag must lie in: from low to high, each end included unless
 * marked open. An unbounded end is ±Infinity (always open).
 */
export interface FlagRange {
  readonly low: number;
  readonly high: number;
  readonly lowOpen?: boolean;
  readonly highOpen?: boolean;
}

function describeRange(range: FlagRange): string {
  if (range.high === Number.POSITIVE_INFINITY) return `${range.lowOpen ? '>' : '≥'} ${range.low}`;
  return `in ${range.lowOpen ? '(' : '['}${range.low}, ${range.high}${range.highOpen ? ')' : ']'}`;
}

function inRange(value: number, range: FlagRange): boolean {
  const aboveLow = range.lowOpen ? value > range.low : value >= range.low;
  const belowHigh = range.highOpen ? value < range.high : value <= range.high;
  return aboveLow && belowHigh;
}

/**
 * checkNumberFlag(flag, value, range, noun) returns value when it is a number in range,
 * and otherwise throws an InputError naming the flag, e.g. "--idle-timeout: expected
 * seconds in (0, 86400], found 0". yargs turns a non-number into NaN, which is never in
 * range. O(1).
 */
export function checkNumberFlag(flag: string, value: number, range: FlagRange, noun = 'a number'): number {
  if (!(typeof value === 'number' && inRange(value, range))) {
    throw inputError({ where: flag, expected: `${noun} ${describeRange(range)}`, found: value });
  }
  return value;
}

/**
 * checkIntegerFlag(flag, value, low, high) returns value when it is an integer from low
 * to high (high defaults to unbounded), and otherwise throws an InputError naming the
 * flag: "--threads: expected an integer in [1, 1024], found 0" or "an integer ≥ 100". O(1).
 */
export function checkIntegerFlag(flag: string, value: number, low: number, high = Number.POSITIVE_INFINITY): number {
  if (!(Number.isInteger(value) && value >= low && value <= high)) {
    throw inputError({ where: flag, expected: `an integer ${describeRange({ low, high })}`, found: value });
  }
  return value;
}

/**
 * checkProbabilityFlag(flag, value) returns value when it lies strictly between 0 and 1
 * (a tolerance, an error level, a pass probability), and otherwise throws an
 * InputError naming the flag: "--tolerance: expected a number in (0, 1), found 1.5". O(1).
 */
export function checkProbabilityFlag(flag: string, value: number): number {
  return checkNumberFlag(flag, value, { low: 0, high: 1, lowOpen: true, highOpen: true });
}

/**
 * checkErrorLevelFlags(alpha, beta) applies the one rule for error levels
 * (errorLevelsProblem: both in (0, 1), alpha + beta < 1) to --alpha and --beta, and
 * throws an InputError naming the flag otherwise. O(1).
 */
export function checkErrorLevelFlags(alpha: number, beta: number): void {
  const problem = errorLevelsProblem(alpha, beta);
  if (problem) throw inputError({ where: `--${problem.key}`, expected: problem.expected, found: problem.found });
}

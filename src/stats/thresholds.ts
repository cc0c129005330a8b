import { inputError } from '../util/errors.js';

/** The stopping boundaries of the sequential GLR test. */
export interface SequentialThresholds {
  /** Reject H0 (violation) once the statistic is at or above this. */
  readonly upper: number;
  /** Accept H0 (compliance) once the statistic is at or below this. */
  readonly lower: number;
}

/** What is wrong with a pair of error levels: the key, what was expected, what was found. */
export interface ErrorLevelsProblem {
  readonly key: 'alpha' | 'beta';
  readonly expected: string;
  readonly found: unknown;
}

/**
 * errorLevelsProblem(alpha, beta) is the one rule for the nominal error levels of a
 * sequential test: both numbers in (0, 1) with alpha + beta < 1 (otherwise the lower
 * boundary would not lie below the upper one). Returns the first problem, or
 * undefined when they are fine. Config schemas, the CLI and checkErrorLevels all use
 * it. O(1).
 */
export function errorLevelsProblem(alpha: number, beta: number): ErrorLevelsProblem | undefined {
  if (!(alpha > 0 && alpha < 1)) return { key: 'alpha', expected: 'a number in (0, 1)', found: alpha };
  if (!(beta > 0 && beta < 1)) return { key: 'beta', expected: 'a number in (0, 1)', found: beta };
  if (!(alpha + beta < 1))
    return { key: 'beta', expected: 'alpha + beta < 1 (otherwise the thresholds cross)', found: beta };
  return undefined;
}

/**
 * checkErrorLevels(alpha, beta, where) throws InputError naming `where` and the key
 * unless errorLevelsProblem(alpha, beta) finds nothing. O(1).
 */
export function checkErrorLevels(alpha: number, beta: number, where = 'sequentialThresholds'): void {
  const problem = errorLevelsProblem(alpha, beta);
  if (problem)
    throw inputError({ where: `${where}: ${problem.key}`, expected: problem.expected, found: problem.found });
}

/**
 * waldThresholds(alpha, beta) is the kernel of sequentialThresholds: Wald's SPRT
 * boundaries upper = log((1 - beta) / alpha), lower = log(beta / (1 - alpha)), with
 * no validation (the one place these formulas are written). O(1).
 */
export function waldThresholds(alpha: number, beta: number): SequentialThresholds {
  return { upper: Math.log((1 - beta) / alpha), lower: Math.log(beta / (1 - alpha)) };
}

/**
 * sequentialThresholds(alpha, beta) returns Wald's SPRT boundaries used as the
 * operational thresholds of paper A section 3.5: upper = log((1 - beta) / alpha),
 * lower = log(beta / (1 - alpha)). For alpha = 0.05, beta = 0.2 they are 2.7726 and
 * -1.5581. O(1). Throws InputError unless alpha, beta in (0, 1) with alpha + beta < 1.
 * @param alpha the level of false violations, in (0, 1)
 * @param beta the level of false compliance, in (0, 1), with alpha + beta < 1
 * @returns Wald's thresholds {upper: log((1-β)/α), lower: log(β/(1-α))}
 * @example
 * const { upper, lower } = sequentialThresholds(0.05, 0.2); // 2.773, -1.558
 */
export function sequentialThresholds(alpha: number, beta: number): SequentialThresholds {
  checkErrorLevels(alpha, beta);
  return waldThresholds(alpha, beta);
}

/** What is wrong with a pair of thresholds: the key (relative to the pair), what was expected, what was found. */
export interface ThresholdsProblem {
  readonly key: 'upper' | 'lower' | '';
  readonly expected: string;
  readonly found: unknown;
}

/**
 * thresholdsProblem(thresholds) is the one rule for given stopping thresholds: finite
 * numbers with upper > lower, upper > 0 and lower < 0 (the signed GLR is >= 0 on the
 * violation side and <= 0 on the compliance side, so a threshold on the wrong side of 0
 * would decide at the first defined statistic). Returns the first problem, or undefined.
 * The audit settings' schema and checkThresholds both use it. O(1).
 */
export function thresholdsProblem(thresholds: SequentialThresholds): ThresholdsProblem | undefined {
  const { upper, lower } = thresholds;
  if (!Number.isFinite(upper)) return { key: 'upper', expected: 'a finite number', found: upper };
  if (!Number.isFinite(lower)) return { key: 'lower', expected: 'a finite number', found: lower };
  if (!(upper > lower)) return { key: '', expected: 'upper greater than lower', found: { upper, lower } };
  if (!(upper > 0)) return { key: 'upper', expected: 'a number > 0', found: upper };
  if (!(lower < 0)) return { key: 'lower', expected: 'a number < 0', found: lower };
  return undefined;
}

/**
 * checkThresholds(thresholds, where) throws InputError naming `where` ("thresholds" in a
 * config, "--upper" on a command line) and the key unless thresholdsProblem finds
 * nothing. O(1).
 */
export function checkThresholds(thresholds: SequentialThresholds, where = 'thresholds'): void {
  const problem = thresholdsProblem(thresholds);
  if (problem)
    throw inputError({
      where: problem.key === '' ? where : `${where}: ${problem.key}`,
      expected: problem.expected,
      found: problem.found,
    });
}

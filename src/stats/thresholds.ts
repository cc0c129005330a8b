import { inputError } from '../util/errors.js';

/** The stopping boundaries of the sequential GLR test. */
export interface SequentialThresholds {
  /** Reject H0 (violation) once the statistic is at or above this. */
  readonly upper: number;
  /** Accept H0 (compliance) once the statistic is at or below this. */
  readonly lower: number;
}

/**
 * checkErrorLevels(alpha, beta, where) throws unless both are numbers in (0, 1) with
 * alpha + beta < 1 (otherwise the lower boundary would not lie below the upper one).
 */
export function checkErrorLevels(alpha: number, beta: number, where = 'sequentialThresholds'): void {
  if (!(alpha > 0 && alpha < 1)) throw inputError({ where: `${where}: alpha`, expected: 'a number in (0, 1)', found: alpha });
  if (!(beta > 0 && beta < 1)) throw inputError({ where: `${where}: beta`, expected: 'a number in (0, 1)', found: beta });
  if (!(alpha + beta < 1)) {
    throw inputError({ where: `${where}: alpha + beta`, expected: 'less than 1', found: alpha + beta });
  }
}

/**
 * sequentialThresholds(alpha, beta) returns Wald's SPRT boundaries used as the
 * operational thresholds of paper A section 3.5: upper = log((1 - beta) / alpha),
 * lower = log(beta / (1 - alpha)). For alpha = 0.05, beta = 0.2 they are 2.7726 and
 * -1.5581. O(1). Throws InputError unless alpha, beta in (0, 1) with alpha + beta < 1.
 */
export function sequentialThresholds(alpha: number, beta: number): SequentialThresholds {
  checkErrorLevels(alpha, beta);
  return { upper: Math.log((1 - beta) / alpha), lower: Math.log(beta / (1 - alpha)) };
}

/**
 * checkThresholds(thresholds, where) throws InputError unless upper and lower are finite
 * numbers with upper > lower, upper > 0 and lower < 0 (the signed GLR is >= 0 on the
 * violation side and <= 0 on the compliance side, so a threshold on the wrong side of 0
 * would decide at the first defined statistic). `where` names the setting in the message
 * ("thresholds" in a config, "--upper" on a command line). O(1).
 */
export function checkThresholds(thresholds: SequentialThresholds, where = 'thresholds'): void {
  const { upper, lower } = thresholds;
  if (!Number.isFinite(upper)) throw inputError({ where: `${where}: upper`, expected: 'a finite number', found: upper });
  if (!Number.isFinite(lower)) throw inputError({ where: `${where}: lower`, expected: 'a finite number', found: lower });
  if (!(upper > lower)) {
    throw inputError({ where: `${where}`, expected: 'upper greater than lower', found: { upper, lower } });
  }
  if (!(upper > 0)) throw inputError({ where: `${where}: upper`, expected: 'a number > 0', found: upper });
  if (!(lower < 0)) throw inputError({ where: `${where}: lower`, expected: 'a number < 0', found: lower });
}

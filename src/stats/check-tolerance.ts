import { inputError } from '../util/errors.js';

/**
 * checkTolerance(tolerance, where, upperLimit) throws InputError unless the tolerance is
 * a number in (0, upperLimit): (0, 1) for a gap between two probabilities, (0, inf)
 * for a gap between two means on an unbounded scale.
 */
export function checkTolerance(tolerance: number, where: string, upperLimit = 1): void {
  if (!(tolerance > 0 && tolerance < upperLimit)) {
    const range = upperLimit === Number.POSITIVE_INFINITY ? 'a positive number' : `a number in (0, ${upperLimit})`;
    throw inputError({ where, expected: range, found: tolerance });
  }
}

import { type InputError, inputError } from '../util/errors.js';
import type { PreparedAudit } from './prepare-audit.js';

/**
 * logitBoundsProblem(prepared, bounds) checks the declared logit bounds on the whole
 * metric's pool before an audit, when the pool is at hand (a harness run, `fairaudit
 * audit --pool`): the betting and confidence-sequence tests' guarantee holds only if every
 * logit lies within them, and a pool that breaks them is refused before a single query
 * rather than when an audit happens to query an offending row. Returns the InputError
 * naming the first offending row of the metric's pool, how many lie outside and the
 * range found, or null when every logit fits. O(pool size).
 * @param prepared a pool prepared for logit access
 * @param bounds the declared {lower, upper}
 * @returns the error, or null
 * @example logitBoundsProblem(prepareAudit(pool, 'sp', 'logit'), { lower: -8, upper: 8 })
 */
export function logitBoundsProblem(
  prepared: PreparedAudit,
  bounds: { readonly lower: number; readonly upper: number },
): InputError | null {
  const { value } = prepared;
  let outside = 0;
  let first = -1;
  let smallest = Number.POSITIVE_INFINITY;
  let largest = Number.NEGATIVE_INFINITY;
  for (let row = 0; row < prepared.size; row++) {
    const logit = value[row];
    if (logit < smallest) smallest = logit;
    if (logit > largest) largest = logit;
    if (!(logit >= bounds.lower && logit <= bounds.upper)) {
      outside++;
      if (first < 0) first = row;
    }
  }
  if (outside === 0) return null;
  return inputError({
    where: `${prepared.source}: logit of the ${prepared.metric} pool`,
    expected:
      `every logit within the declared logit bounds [${bounds.lower}, ${bounds.upper}] (the betting ` +
      `test's guarantee needs them)`,
    found:
      `${outside} of ${prepared.size} rows outside (the first is row ${first + 1} of the metric's ` +
      `pool, ${value[first]}; the logits span [${smallest}, ${largest}])`,
  });
}

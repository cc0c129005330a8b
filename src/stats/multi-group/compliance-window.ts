import { inputError } from '../../util/errors.js';

/** How the K-group gap is aggregated: max - min of the group rates, or min / max. */
export type MultiGroupAggregation = 'difference' | 'ratio';

/**
 * The null of a K-group audit as a sliding window: H0 holds iff every group's parameter
 * lies in [c, scale c + shift] for some c. The difference null max - min <= tolerance is
 * scale 1, shift tolerance; the ratio null min >= ρ max is scale 1 /
 * ρ, shift 0 (for nonnegative parameters). See docs/core.md, "K groups".
 */
export interface ComplianceWindow {
  readonly scale: number;
  readonly shift: number;
}

/**
 * complianceWindow(aggregation, bound) returns the window of the null: for 'difference'
 * bound is the tolerance δ in (0, 1) (or (0, inf) when `unbounded`, for score and logit
 * means), for 'ratio' it is the smallest compliant ratio ρ in (0, 1) (0.8 for the
 * four-fifths rule). O(1). Throws InputError naming `where` for a bound out of range.
 * @param aggregation 'difference' or 'ratio'
 * @param bound δ or ρ
 * @param where what to name in an error
 * @param unbounded whether a difference may exceed 1 (means of logits)
 * @returns the window's scale and shift
 * @example
 * complianceWindow('ratio', 0.8); // { scale: 1.25, shift: 0 }
 */
export function complianceWindow(
  aggregation: MultiGroupAggregation,
  bound: number,
  where = 'complianceWindow',
  unbounded = false,
): ComplianceWindow {
  if (aggregation === 'difference') {
    const limit = unbounded ? Number.POSITIVE_INFINITY : 1;
    if (!(bound > 0 && bound < limit)) {
      const expected = unbounded ? 'a tolerance > 0' : 'a tolerance in (0, 1)';
      throw inputError({ where: `${where}: tolerance`, expected, found: bound });
    }
    return { scale: 1, shift: bound };
  }
  if (aggregation === 'ratio') {
    if (!(bound > 0 && bound < 1)) {
      throw inputError({ where: `${where}: ratio`, expected: 'a smallest compliant ratio in (0, 1)', found: bound });
    }
    return { scale: 1 / bound, shift: 0 };
  }
  throw inputError({ where: `${where}: aggregation`, expected: "'difference' or 'ratio'", found: aggregation });
}

/**
 * windowExcess(lowest, highest, scale, shift): how far the highest parameter lies above
 * the window opened at the lowest, highest - (scale lowest + shift); > 0 is a violation.
 * For the difference (scale 1) it is computed as (highest - lowest) - shift, the same
 * rounding as the two-group gap test. O(1).
 */
export function windowExcess(lowest: number, highest: number, scale: number, shift: number): number {
  return scale === 1 ? highest - lowest - shift : highest - scale * lowest - shift;
}

/**
 * The null projection of a score or logit pool: the same rows with group b's values moved
 * by one constant so that the mean gap (mean of b minus mean of a) is exactly `gap` (up
 * to rounding). Group sizes, group a, and group b's residuals (each value minus its group
 * mean) are kept, so the within-group spread and shape of the audited pool are kept; only
 * the location of group b moves. Scores may leave [0, 1] (harmless for the Gaussian proxy
 * GLR, which is location-equivariant: moving a by -c instead of b by +c gives the same
 * statistic path).
 *
 * nullProjection(group, value, gap) returns the projected values. O(pool size).
 * Kernel: no validation (both groups non-empty).
 */
export function nullProjection(group: Uint8Array, value: Float64Array, gap: number): Float64Array {
  let countA = 0;
  let countB = 0;
  let sumA = 0;
  let sumB = 0;
  for (let row = 0; row < group.length; row++) {
    if (group[row] === 0) {
      countA++;
      sumA += value[row];
    } else {
      countB++;
      sumB += value[row];
    }
  }
  const shift = gap - (sumB / countB - sumA / countA);
  const projected = new Float64Array(value.length);
  for (let row = 0; row < group.length; row++) projected[row] = group[row] === 1 ? value[row] + shift : value[row];
  return projected;
}

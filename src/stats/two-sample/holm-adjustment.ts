/**
 * holmAdjustment(pValues) is Holm's step-down adjustment (Holm 1979; statsmodels
 * multipletests(method='holm')): sorted ascending, p_(i) becomes max over j <= i of
 * min(1, (m − j + 1)·p_(j)). Rejecting every hypothesis whose adjusted p-value is at most
 * α controls the family-wise error rate (the chance of any false alarm in the whole
 * comparison) at α under any dependence. Returned in the input's order; NaN stays NaN and
 * does not count. O(m log m).
 *
 * @param pValues - the raw p-values
 * @returns the adjusted p-values
 * @example holmAdjustment([0.01, 0.04, 0.03]) // [0.03, 0.06, 0.06]
 */
export function holmAdjustment(pValues: readonly number[]): number[] {
  const order = pValues
    .map((p, index) => ({ p, index }))
    .filter((entry) => !Number.isNaN(entry.p))
    .sort((a, b) => a.p - b.p || a.index - b.index);
  const adjusted = pValues.map(() => Number.NaN);
  let running = 0;
  order.forEach((entry, rank) => {
    running = Math.max(running, Math.min(1, (order.length - rank) * entry.p));
    adjusted[entry.index] = running;
  });
  return adjusted;
}

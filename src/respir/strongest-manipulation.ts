import type { Manipulation } from './adversary.js';
import type { PassProbabilityEvaluator } from './exact-pass-probability.js';

/** Pass probabilities closer than this are ties (far below the evaluator's enclosure of ~1e-10). */
const tieWidth = 1e-12;

/**
 * strongestManipulation(evaluator, positives, flips) is the manipulation of C's metric
 * rows with exactly `flips` flips (|P₀' − P₀| + |P₁' − P₁| = flips, either group, either
 * direction) that maximises the exact pass probability of the oblivious audit
 * (createPassProbabilityEvaluator): every point of that ℓ1 ring is computed. Ties (within
 * 1e-12) go to
 * the split that spreads the flips most evenly over the two groups, so equal pass
 * probabilities never pile every flip on one group. When the ring leaves the grid
 * entirely (flips beyond what C allows), the largest feasible ring is used. This is the
 * adversary the Monte Carlo bisection (minimalPassingFlips) simulates: it maximises what
 * the provider cares about — passing — rather than minimising |d_C|, which ignores the
 * sampling variance. O(flips) evaluations. Inputs are trusted.
 */
export function strongestManipulation(
  evaluator: PassProbabilityEvaluator,
  positives: readonly [number, number],
  flips: number,
): Manipulation {
  const [eligible0, eligible1] = evaluator.setting.population.eligibleSizes;
  const [p0, p1] = positives;
  const largest = Math.max(p0, eligible0 - p0) + Math.max(p1, eligible1 - p1);
  const radius = Math.min(flips, largest);
  let best = { u: p0, v: p1, value: Number.NEGATIVE_INFINITY, spread: Number.POSITIVE_INFINITY };
  for (let a = -radius; a <= radius; a++) {
    const rest = radius - Math.abs(a);
    for (const b of rest === 0 ? [0] : [rest, -rest]) {
      const u = p0 + a;
      const v = p1 + b;
      if (u < 0 || u > eligible0 || v < 0 || v > eligible1) continue;
      const value = evaluator.outcomes(u, v).pass.value;
      const spread = Math.abs(Math.abs(a) - Math.abs(b));
      const tie = Math.abs(value - best.value) <= tieWidth;
      if ((value > best.value && !tie) || (tie && spread < best.spread)) best = { u, v, value, spread };
    }
  }
  const groupZeroRaised = best.u - p0;
  const groupOneLowered = p1 - best.v;
  return {
    groupOneLowered,
    groupZeroRaised,
    flips: Math.abs(groupZeroRaised) + Math.abs(groupOneLowered),
    gap: best.v / eligible1 - best.u / eligible0,
  };
}

import { ceilFlipCount } from '../flip-count.js';
import { smallestOf } from './multi-group-flip-bounds.js';
import {
  type MultiGroupSizes,
  multiGroupFinitePopulationMargin,
  multiGroupHoeffdingMargin,
} from './multi-group-margin.js';

/** A flip count for the ratio form min_g p_g ≥ ρ·max_g p_g, with how it was reached. */
export interface RatioFlips {
  /** Outputs the provider flips on the candidate set C. */
  flips: number;
  /** True when the margin exceeds 1 − ρ, the most slack any outputs reach (all rates 1): `flips` then aims at 1 − ρ. */
  bestEffort: boolean;
  /** The concentration margin: (1 + ρ)·t (Hoeffding) or t_(1) + ρ·t_(2) (finite population). */
  margin: number;
  /** The slack min − ρ·max that the sufficient condition asks of C (1 − ρ on best effort). */
  targetSlack: number;
}

/**
 * ratioSlack(minimumRate, maximumRate, ratio) is min_g p_g − ρ·max_g p_g: the audit of the
 * impact ratio min/max ≥ ρ passes iff it is ≥ 0 (all rates 0 passes: no division). One flip
 * of group g moves it by at most 1/N_g (min and max each move by at most that, ρ ≤ 1). O(1).
 * @param minimumRate min_g p_g
 * @param maximumRate max_g p_g
 * @param ratio ρ in (0, 1]
 * @returns the slack, negative when the ratio audit fails
 * @example
 * ratioSlack(0.3, 0.5, 0.8); // −0.1: impact ratio 0.6 < 0.8
 */
export function ratioSlack(minimumRate: number, maximumRate: number, ratio: number): number {
  return minimumRate - ratio * maximumRate;
}

function ratioFlipsForMargin(slack: number, ratio: number, margin: number, candidateMinority: number): RatioFlips {
  if (slack >= 0) return { flips: 0, bestEffort: false, margin, targetSlack: margin };
  const bestEffort = margin > 1 - ratio;
  const targetSlack = bestEffort ? 1 - ratio : margin;
  return { flips: ceilFlipCount((targetSlack - slack) * candidateMinority), bestEffort, margin, targetSlack };
}

/**
 * multiGroupRatioVanillaFlipBound(minimumRate, maximumRate, ratio, auditGroupSizes) is
 * Proposition 1 for the ratio form: a provider that sees S must raise the slack
 * min − ρ·max from its value on S to 0, and one flip raises it by at most 1/n_min, so it
 * flips at least ⌈(ρ·max − min)·n_min⌉ outputs; 0 when S already passes. O(K). The caller validates.
 * @param minimumRate min_g p_g,S
 * @param maximumRate max_g p_g,S
 * @param ratio ρ in (0, 1]
 * @param auditGroupSizes n_g of every group's metric rows in S
 * @returns a lower bound on the vanilla provider's flips
 * @example
 * multiGroupRatioVanillaFlipBound(0.3, 0.5, 0.8, [300, 150, 50]); // ⌈0.1·50⌉ = 5
 */
export function multiGroupRatioVanillaFlipBound(
  minimumRate: number,
  maximumRate: number,
  ratio: number,
  auditGroupSizes: readonly number[],
): number {
  return ceilFlipCount(-ratioSlack(minimumRate, maximumRate, ratio) * smallestOf(auditGroupSizes));
}

/**
 * multiGroupRatioFlipBound(minimumRate, maximumRate, ratio, failureProbability, sizes,
 * margin) is Theorems 1 and 4 for the ratio form: when every group rate of S is within t_g
 * of C's, min_S − ρ·max_S ≥ (min_C − ρ·max_C) − (t_(1) + ρ·t_(2)), so slack_C ≥ γ passes
 * with probability ≥ 1 − δ, γ = (1 + ρ)·sqrt(ln(2K/δ)/(2 n_min)) (`hoeffding`) or
 * t_(1) + ρ·t_(2) with Bardenet and Maillard's t_g (`finite-population`). Enforcing it
 * from slack_true < 0 takes at least ⌈(γ − slack_true)·N_min⌉ flips; when γ > 1 − ρ no
 * outputs reach it and the count aims at 1 − ρ (best effort); 0 when C already passes. The
 * ratio form has no two-group predecessor in paper B. O(K). The caller validates.
 * @param minimumRate min_g p_g,C before manipulation
 * @param maximumRate max_g p_g,C before manipulation
 * @param ratio ρ in (0, 1] (0.8: the four-fifths rule)
 * @param failureProbability δ
 * @param sizes n_g and N_g of every group's metric rows
 * @param margin which concentration margin: 'hoeffding' (Theorem 1) or 'finite-population' (Theorem 4)
 * @returns the flips enforcing the sufficient condition takes
 * @example
 * multiGroupRatioFlipBound(0.3, 0.5, 0.8, 0.2, { auditGroupSizes: [300, 150, 50],
 *   candidateGroupSizes: [3000, 1500, 500] }, 'finite-population');
 */
export function multiGroupRatioFlipBound(
  minimumRate: number,
  maximumRate: number,
  ratio: number,
  failureProbability: number,
  sizes: MultiGroupSizes,
  margin: 'hoeffding' | 'finite-population',
): RatioFlips {
  const form = { kind: 'ratio', ratio } as const;
  const value =
    margin === 'hoeffding'
      ? multiGroupHoeffdingMargin(
          failureProbability,
          sizes.auditGroupSizes.length,
          smallestOf(sizes.auditGroupSizes),
          form,
        )
      : multiGroupFinitePopulationMargin(failureProbability, sizes, form);
  const slack = ratioSlack(minimumRate, maximumRate, ratio);
  return ratioFlipsForMargin(slack, ratio, value, smallestOf(sizes.candidateGroupSizes));
}

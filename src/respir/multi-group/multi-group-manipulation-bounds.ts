import { inputError } from '../../util/errors.js';
import { type MultiGroupCounts, rateExtremesOf } from './multi-group-counts.js';
import {
  multiGroupFinitePopulationFlipBound,
  multiGroupRespirFlipBound,
  multiGroupVanillaFlipBound,
} from './multi-group-flip-bounds.js';
import type { MultiGroupForm, MultiGroupSizes } from './multi-group-margin.js';
import {
  multiGroupRatioFlipBound,
  multiGroupRatioVanillaFlipBound,
  ratioSlack,
} from './multi-group-ratio-flip-bounds.js';
import { windowMinimalFlips } from './window-minimal-flips.js';

/** One K-group oblivious audit to bound: C's metric rows, S's group sizes, the audited form and its threshold. */
export interface MultiGroupManipulationSetting {
  /** C's metric rows (all rows, label = 1 or label = 0 rows) and their decision-1 rows per group. */
  readonly candidateCounts: MultiGroupCounts;
  /** n_g: metric rows of each group in S (fixed by a stratified design; the expected ones for a uniform S). */
  readonly auditGroupSizes: readonly number[];
  /** The max-gap (difference) or the impact ratio min/max ≥ ρ. */
  readonly form: MultiGroupForm;
  /** ε for the max-gap; ignored by the ratio form. */
  readonly tolerance: number;
  /** 1 − δ, from ½ to below 1 (Theorem 1 assumes δ ≤ ½). */
  readonly passProbability: number;
}

/** A sufficient-condition count with its margin and the target it enforces on C. */
export interface SufficientFlips {
  readonly flips: number;
  readonly bestEffort: boolean;
  readonly margin: number;
  /** The max-gap (difference) or slack min − ρ·max (ratio) the condition asks of C. */
  readonly target: number;
}

/** Paper B's counts for K groups, and the exact minima beside them. */
export interface MultiGroupManipulationBounds {
  readonly groupCount: number;
  /** max_g p_g − min_g p_g on C. */
  readonly candidateGap: number;
  /** min_g p_g / max_g p_g on C (1 when every rate is 0). */
  readonly candidateRatio: number;
  /**
   * Proposition 1 (`flips`) with S at C's rates, and the exact vanilla minimum (`exactFlips`,
   * windowMinimalFlips on S with positives round(n_g·P_g/N_g)).
   */
  readonly vanilla: { readonly flips: number; readonly exactFlips: number };
  /** Theorem 1 (Hoeffding margin, union over K groups). */
  readonly theorem1: SufficientFlips;
  /**
   * Theorem 4 (finite-population margin), with `exactFlips`: the exact fewest flips on C that
   * reach its target (windowMinimalFlips), a certified upper bound on the fewest flips passing
   * with probability ≥ 1 − δ when n_g is fixed (a stratified S); null when no outputs reach it.
   */
  readonly theorem4: SufficientFlips & { readonly exactFlips: number | null };
}

function requireCount(value: number, low: number, high: number, where: string): void {
  if (!Number.isInteger(value) || value < low || value > high) {
    throw inputError({ where, expected: `an integer from ${low} to ${high}`, found: value });
  }
}

/**
 * validateMultiGroupSetting(setting) throws an InputError naming the entry at fault: K ≥ 2
 * groups with sizes and positives of the same length, 1 ≤ n_g ≤ N_g, 0 ≤ P_g ≤ N_g, ε in
 * [0, 1], ρ in (0, 1], 1 − δ in [½, 1).
 * @param setting the audit to bound
 * @returns nothing; throws on the first bad entry
 * @example
 * validateMultiGroupSetting(setting);
 */
export function validateMultiGroupSetting(setting: MultiGroupManipulationSetting): void {
  const where = 'multiGroupManipulationBounds';
  const { sizes, positives } = setting.candidateCounts;
  const groupCount = sizes.length;
  if (groupCount < 2 || positives.length !== groupCount || setting.auditGroupSizes.length !== groupCount) {
    throw inputError({
      where: `${where}: groups`,
      expected: 'at least 2 groups, with as many positives and audit sizes as candidate sizes',
      found: `${groupCount} sizes, ${positives.length} positives, ${setting.auditGroupSizes.length} audit sizes`,
    });
  }
  for (let g = 0; g < groupCount; g++) {
    requireCount(sizes[g], 1, Number.MAX_SAFE_INTEGER, `${where}: candidate size of group ${g}`);
    requireCount(positives[g], 0, sizes[g], `${where}: candidate positives of group ${g}`);
    requireCount(setting.auditGroupSizes[g], 1, sizes[g], `${where}: audit size of group ${g}`);
  }
  if (!(setting.tolerance >= 0 && setting.tolerance <= 1)) {
    throw inputError({ where: `${where}: tolerance`, expected: 'a number in [0, 1]', found: setting.tolerance });
  }
  if (setting.form.kind === 'ratio' && !(setting.form.ratio > 0 && setting.form.ratio <= 1)) {
    throw inputError({ where: `${where}: ratio`, expected: 'a ratio ρ in (0, 1]', found: setting.form.ratio });
  }
  if (!(setting.passProbability >= 0.5 && setting.passProbability < 1)) {
    throw inputError({
      where: `${where}: passProbability`,
      expected: 'a pass probability 1 − δ from 0.5 to below 1 (Theorem 1 assumes δ ≤ ½)',
      found: setting.passProbability,
    });
  }
}

/**
 * multiGroupManipulationBounds(setting) computes, for K groups and either form, paper B's
 * vanilla count (Proposition 1) and the exact vanilla minimum, Theorem 1's and Theorem 4's
 * counts on C (the max-gap: ⌈(D_C − ε + γ)·N_min⌉; the ratio: ⌈(γ − slack_C)·N_min⌉), and
 * the exact fewest flips reaching Theorem 4's target (windowMinimalFlips). For equal
 * opportunity or predictive equality pass the label = 1 or label = 0 rows' counts. At K = 2
 * with the max-gap every count equals the two-group functions'. O(K·Σ N_g). Throws
 * InputError on a bad setting (validateMultiGroupSetting).
 * @param setting C's counts, S's group sizes, the form, ε and 1 − δ
 * @returns the counts, margins and targets
 * @example
 * multiGroupManipulationBounds({ candidateCounts: { sizes: [3000, 1500, 500], positives: [900, 600, 100] },
 *   auditGroupSizes: [300, 150, 50], form: { kind: 'difference' }, tolerance: 0.1, passProbability: 0.8 });
 */
export function multiGroupManipulationBounds(setting: MultiGroupManipulationSetting): MultiGroupManipulationBounds {
  validateMultiGroupSetting(setting);
  const { candidateCounts, auditGroupSizes, form, tolerance } = setting;
  const failure = 1 - setting.passProbability;
  const sizes: MultiGroupSizes = { auditGroupSizes, candidateGroupSizes: candidateCounts.sizes };
  const { minimum, maximum } = rateExtremesOf(candidateCounts);
  const auditCounts = {
    sizes: auditGroupSizes,
    positives: auditGroupSizes.map((n, g) => Math.round((n * candidateCounts.positives[g]) / candidateCounts.sizes[g])),
  };
  const threshold = form.kind === 'difference' ? tolerance : 0;
  const exactVanilla = windowMinimalFlips(auditCounts, form, threshold)?.flips ?? Number.NaN;
  let theorem1: SufficientFlips;
  let theorem4: SufficientFlips;
  let vanillaFlips: number;
  if (form.kind === 'difference') {
    vanillaFlips = multiGroupVanillaFlipBound(maximum - minimum, tolerance, auditGroupSizes);
    const one = multiGroupRespirFlipBound(maximum - minimum, tolerance, failure, sizes);
    const four = multiGroupFinitePopulationFlipBound(maximum - minimum, tolerance, failure, sizes);
    theorem1 = { flips: one.flips, bestEffort: one.bestEffort, margin: one.margin, target: one.targetGap };
    theorem4 = { flips: four.flips, bestEffort: four.bestEffort, margin: four.margin, target: four.targetGap };
  } else {
    vanillaFlips = multiGroupRatioVanillaFlipBound(minimum, maximum, form.ratio, auditGroupSizes);
    const one = multiGroupRatioFlipBound(minimum, maximum, form.ratio, failure, sizes, 'hoeffding');
    const four = multiGroupRatioFlipBound(minimum, maximum, form.ratio, failure, sizes, 'finite-population');
    theorem1 = { flips: one.flips, bestEffort: one.bestEffort, margin: one.margin, target: one.targetSlack };
    theorem4 = { flips: four.flips, bestEffort: four.bestEffort, margin: four.margin, target: four.targetSlack };
  }
  const alreadyPasses =
    form.kind === 'difference' ? maximum - minimum <= tolerance : ratioSlack(minimum, maximum, form.ratio) >= 0;
  const exactTheorem4 = alreadyPasses ? 0 : (windowMinimalFlips(candidateCounts, form, theorem4.target)?.flips ?? null);
  return {
    groupCount: candidateCounts.sizes.length,
    candidateGap: maximum - minimum,
    candidateRatio: maximum === 0 ? 1 : minimum / maximum,
    vanilla: { flips: vanillaFlips, exactFlips: exactVanilla },
    theorem1,
    theorem4: { ...theorem4, exactFlips: exactTheorem4 },
  };
}

import type { AuditDesign } from '../audit/audit-design.js';
import { inputError } from '../util/errors.js';
import { detectionProbability } from './detection-probability.js';
import { type ExactMinimalFlips, exactMinimalFlips } from './exact-minimal-flips.js';
import { exactVanillaFlips } from './exact-vanilla-flips.js';
import { type ManipulationSetting, type SettingNames, validateManipulationSetting } from './manipulation-bounds.js';

/** A Table 2-style setting plus what the exact cost needs beyond paper B's bounds: the rates and the design. */
export interface ExactCostSetting extends ManipulationSetting {
  /**
   * The smaller group's decision-1 rate in C. The larger group's rate is this minus
   * `gap` (so a positive gap means the smaller group is favoured). Default: rates
   * centred on ½ (½ ± gap/2), the largest sampling variance.
   */
  minorityRate?: number;
  /** How S is drawn from C (default uniform, paper B §4.1). */
  design?: AuditDesign;
}

/** Options of exactManipulationCost. */
export interface ExactCostOptions {
  /** Evaluations after which the respir search reports a bracket (exactMinimalFlips). */
  maxEvaluations?: number;
}

/** The exact provider cost beside paper B's bounds. */
export interface ExactManipulationCost {
  /** The counts the exact calculation uses (group 0 = the larger group, group 1 = the smaller). */
  assumptions: {
    design: AuditDesign;
    minorityRate: number;
    majorityRate: number;
    /** Decision-1 rows of C per group, [larger, smaller]: round(rate·size). */
    candidatePositives: [number, number];
    /** P₁/N₁ − P₀/N₀ of those counts (the smaller group minus the larger). */
    candidateGap: number;
    /** Decision-1 rows of S per group at n_min, [larger, smaller]: round(rate·size). */
    auditPositives: [number, number];
  };
  /** The fewest flips on C passing the oblivious audit with probability ≥ 1 − δ (exactMinimalFlips), with Eq. 3 over N.
   * */
  respir: ExactMinimalFlips & { detection: Record<string, number> };
  /** The fewest flips on S passing the vanilla audit (exactVanillaFlips), with Eq. 3 over n; null flips when none does.
   * */
  vanilla: { flips: number | null; detection: Record<string, number> };
}

function detections(flips: number | null, setSize: number, setting: ManipulationSetting): Record<string, number> {
  const result: Record<string, number> = {};
  for (const k of setting.canaryCounts) {
    result[String(k)] =
      flips === null ? Number.NaN : detectionProbability(flips, setSize, setting.canaryEffectiveness, k);
  }
  return result;
}

/**
 * exactManipulationCost(setting, names, options) turns a bounds setting (sizes, |gap|,
 * ε, 1 − δ, canaries) into counts — the smaller group is group 1 with rate
 * `minorityRate`, the larger group 0 with minorityRate − gap, positives rounded — and
 * computes the exact minimal flips for respir (exactMinimalFlips with `design`) and for
 * the vanilla audit on S's expected counts (n_min, n − n_min; exactVanillaFlips), each
 * with Eq. 3's detection probabilities (over N and n, as paper B substitutes). Where
 * Theorems 1-4 state sufficient conditions, this is what the strongest provider needs.
 * The respir flips used for detection are the certified minimum, or the upper end of
 * the bracket when the search ran out of budget. Throws InputError (naming the setting
 * by `names`) on a bad setting or a rate outside [0, 1]. Cost: one exactMinimalFlips
 * (well under a second at paper B's sizes when ε is not tiny against the noise; several
 * seconds when both rates must be pushed toward 0 or 1).
 * @param setting the audit (sizes, gap, tolerance, design, pass probability)
 * @param names the words messages use for the setting's keys
 * @param options the exact search's tuning
 * @returns the exact minimal flips with respir's design and of vanilla auditing on S
 * @example
 * const { respir } = exactManipulationCost(setting);
 * console.log(respir.flips ?? [respir.lowerBound, respir.upperBound]);
 */
export function exactManipulationCost(
  setting: ExactCostSetting,
  names?: SettingNames & { minorityRate?: string; design?: string },
  options: ExactCostOptions = {},
): ExactManipulationCost {
  validateManipulationSetting(setting, names);
  const gap = setting.gap;
  const minorityRate = setting.minorityRate ?? 0.5 + gap / 2;
  const majorityRate = minorityRate - gap;
  const rateName = names?.minorityRate ?? 'exactManipulationCost: minorityRate';
  if (!(minorityRate >= 0 && minorityRate <= 1)) {
    throw inputError({ where: rateName, expected: 'a rate in [0, 1]', found: minorityRate });
  }
  if (!(majorityRate >= 0 && majorityRate <= 1)) {
    throw inputError({
      where: rateName,
      expected: `a rate r with r − gap in [0, 1] (gap ${gap}): the larger group's rate is r − gap`,
      found: minorityRate,
    });
  }
  const design = setting.design ?? 'uniform';
  if (!['uniform', 'proportional', 'balanced'].includes(design)) {
    throw inputError({
      where: names?.design ?? 'exactManipulationCost: design',
      expected: 'uniform, proportional or balanced',
      found: design,
    });
  }
  const minority = setting.candidateMinoritySize;
  const majority = setting.candidateSetSize - minority;
  const candidatePositives: [number, number] = [
    Math.round(majorityRate * majority),
    Math.round(minorityRate * minority),
  ];
  const auditMinority = setting.auditMinoritySize;
  const auditMajority = setting.auditSetSize - auditMinority;
  const auditPositives: [number, number] = [
    Math.round(majorityRate * auditMajority),
    Math.round(minorityRate * auditMinority),
  ];
  const respir = exactMinimalFlips(
    {
      population: {
        groupSizes: [majority, minority],
        eligibleSizes: [majority, minority],
        eligiblePositives: candidatePositives,
      },
      auditSetSize: setting.auditSetSize,
      design,
      tolerance: setting.tolerance,
      passProbability: setting.passProbability,
    },
    { maxEvaluations: options.maxEvaluations },
  );
  const vanilla = exactVanillaFlips(
    { sizes: [auditMajority, auditMinority], positives: auditPositives },
    setting.tolerance,
  );
  const vanillaFlips = vanilla === null ? null : vanilla.flips;
  const respirFlips = respir.flips ?? respir.upperBound;
  return {
    assumptions: {
      design,
      minorityRate,
      majorityRate,
      candidatePositives,
      candidateGap: candidatePositives[1] / minority - candidatePositives[0] / majority,
      auditPositives,
    },
    respir: { ...respir, detection: detections(respirFlips, setting.candidateSetSize, setting) },
    vanilla: { flips: vanillaFlips, detection: detections(vanillaFlips, setting.auditSetSize, setting) },
  };
}

/**
 * minorityRateForOverallRate(overallRate, gap, candidateSetSize, candidateMinoritySize)
 * is the smaller group's rate when C's pooled decision-1 rate is `overallRate` and the
 * gap (smaller group minus larger) is `gap`: p_min = r + gap·N_max/N, so that
 * (N_min·p_min + N_max·(p_min − gap))/N = r. For Table 2 rows, which print |d_C| but not
 * the rates. O(1); the caller validates (exactManipulationCost checks both rates).
 */
export function minorityRateForOverallRate(
  overallRate: number,
  gap: number,
  candidateSetSize: number,
  candidateMinoritySize: number,
): number {
  return overallRate + (gap * (candidateSetSize - candidateMinoritySize)) / candidateSetSize;
}

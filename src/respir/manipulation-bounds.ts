import { inputError } from '../util/errors.js';
import { detectionProbability } from './detection-probability.js';
import { finitePopulationFlipBound } from './finite-population-flip-bound.js';
import { type RespirFlips, respirFlipBound } from './respir-flip-bound.js';
import { vanillaFlipBound } from './vanilla-flip-bound.js';

/** The setting of one manipulation: paper B's Table 2 columns plus the audit's targets. */
export interface ManipulationSetting {
  /** N = |C|, the candidate set's size. */
  candidateSetSize: number;
  /** n = |S|, the audit set's size. */
  auditSetSize: number;
  /** N_min, the smaller protected group's size in C. */
  candidateMinoritySize: number;
  /** n_min, the smaller protected group's size in S. */
  auditMinoritySize: number;
  /** d_C,true, the provider's true demographic-parity gap (its sign is ignored). */
  gap: number;
  /** ε, the audit's tolerance. */
  tolerance: number;
  /** 1 − δ, the pass probability the provider aims for under respir. */
  passProbability: number;
  /** q, the chance that a canary stays indistinguishable to the provider. */
  canaryEffectiveness: number;
  /** The canary counts k to report detection probabilities for. */
  canaryCounts: readonly number[];
}

/** Flip counts and detection probabilities for one canary count each. */
export interface ManipulationBounds {
  vanilla: { flips: number; detection: Record<string, number> };
  respir: { flips: number; bestEffort: boolean; detection: Record<string, number> };
  /** Extra detail: γ, the respir target gap, and Theorem 4's refinement. */
  details: {
    margin: number;
    targetGap: number;
    finitePopulation: RespirFlips & { detection: Record<string, number> };
  };
}

/** Names to use in error messages for each setting (the CLI passes its flag names). */
export type SettingNames = Record<keyof ManipulationSetting, string>;

const defaultNames: SettingNames = {
  candidateSetSize: 'manipulationBounds: candidateSetSize',
  auditSetSize: 'manipulationBounds: auditSetSize',
  candidateMinoritySize: 'manipulationBounds: candidateMinoritySize',
  auditMinoritySize: 'manipulationBounds: auditMinoritySize',
  gap: 'manipulationBounds: gap',
  tolerance: 'manipulationBounds: tolerance',
  passProbability: 'manipulationBounds: passProbability',
  canaryEffectiveness: 'manipulationBounds: canaryEffectiveness',
  canaryCounts: 'manipulationBounds: canaryCounts',
};

function requireInteger(value: number, minimum: number, maximum: number, where: string, words: string): void {
  if (!Number.isInteger(value) || value < minimum || value > maximum) {
    throw inputError({ where, expected: words, found: value });
  }
}

function requireInRange(value: number, low: number, high: number, open: boolean, where: string, words: string): void {
  const ok = Number.isFinite(value) && (open ? value > low && value < high : value >= low && value <= high);
  if (!ok) throw inputError({ where, expected: words, found: value });
}

/**
 * validateManipulationSetting(setting, names) checks a setting once and throws an
 * InputError naming the offending setting (by `names`), what was expected and what
 * was found: N ≥ n ≥ 2 integers, 1 ≤ n_min ≤ n/2, n_min ≤ N_min ≤ N/2, |gap| ≤ 1,
 * 0 ≤ ε, 1 − δ in [½, 1) (δ ≤ ½, as Theorems 1 and 3 assume), q in [0, 1], canary
 * counts non-negative integers.
 */
export function validateManipulationSetting(setting: ManipulationSetting, names: SettingNames = defaultNames): void {
  const s = setting;
  requireInteger(s.candidateSetSize, 2, Number.MAX_SAFE_INTEGER, names.candidateSetSize, 'an integer of at least 2');
  requireInteger(
    s.auditSetSize,
    2,
    s.candidateSetSize,
    names.auditSetSize,
    `an integer from 2 to the candidate set size ${s.candidateSetSize}`,
  );
  requireInteger(
    s.auditMinoritySize,
    1,
    Math.floor(s.auditSetSize / 2),
    names.auditMinoritySize,
    `an integer from 1 to half the audit set size (${Math.floor(s.auditSetSize / 2)})`,
  );
  requireInteger(
    s.candidateMinoritySize,
    s.auditMinoritySize,
    Math.floor(s.candidateSetSize / 2),
    names.candidateMinoritySize,
    `an integer from the audit minority size ${s.auditMinoritySize} to half the candidate set size ` +
      `(${Math.floor(s.candidateSetSize / 2)})`,
  );
  if (s.candidateSetSize - s.candidateMinoritySize < s.auditSetSize - s.auditMinoritySize) {
    throw inputError({
      where: names.auditSetSize,
      expected:
        `an audit majority (n − n_min) no larger than the candidate majority (N − N_min ` +
        `= ${s.candidateSetSize - s.candidateMinoritySize})`,
      found: s.auditSetSize,
    });
  }
  requireInRange(s.gap, -1, 1, false, names.gap, 'a demographic-parity gap in [-1, 1]');
  requireInRange(s.tolerance, 0, 1, false, names.tolerance, 'a tolerance in [0, 1]');
  // Theorems 1 and 3 hold for δ ∈ (0, ½] (paper B §4.3, Appendix C): 1 − δ ≥ ½.
  if (!(Number.isFinite(s.passProbability) && s.passProbability >= 0.5 && s.passProbability < 1)) {
    throw inputError({
      where: names.passProbability,
      expected: 'a pass probability 1 − δ from 0.5 to below 1 (Theorems 1 and 3 assume δ ≤ ½)',
      found: s.passProbability,
    });
  }
  requireInRange(s.canaryEffectiveness, 0, 1, false, names.canaryEffectiveness, 'a probability in [0, 1]');
  if (!Array.isArray(s.canaryCounts) || s.canaryCounts.length === 0) {
    throw inputError({
      where: names.canaryCounts,
      expected: 'a non-empty list of canary counts',
      found: s.canaryCounts,
    });
  }
  for (const count of s.canaryCounts) {
    requireInteger(count, 0, Number.MAX_SAFE_INTEGER, names.canaryCounts, 'non-negative integer canary counts');
  }
}

function detections(flips: number, setSize: number, setting: ManipulationSetting): Record<string, number> {
  const result: Record<string, number> = {};
  for (const k of setting.canaryCounts) {
    result[String(k)] = detectionProbability(flips, setSize, setting.canaryEffectiveness, k);
  }
  return result;
}

/**
 * manipulationBounds(setting, names?) computes, for one setting, paper B's vanilla
 * flip count (Proposition 1) with its Eq. 3 detection probabilities over n, and the
 * respir flip count (Theorem 1, best effort when ε − γ < 0) with Eq. 3 over N, for
 * each canary count; `details` adds γ, the target gap and Theorem 4's refinement
 * (majority sizes n − n_min and N − N_min). O(number of canary counts).
 * Throws InputError (validateManipulationSetting) on a bad setting.
 * @param setting the audit: sizes, gap, tolerance, pass probability, canaries
 * @param names the words messages use for the setting's keys
 * @returns every bound of paper B for the setting (vanilla, respir, finite population, detection)
 * @example
 * const bounds = manipulationBounds(setting);
 */
export function manipulationBounds(
  setting: ManipulationSetting,
  names: SettingNames = defaultNames,
): ManipulationBounds {
  validateManipulationSetting(setting, names);
  const failure = 1 - setting.passProbability;
  const vanillaFlips = vanillaFlipBound(setting.gap, setting.tolerance, setting.auditMinoritySize);
  const respir = respirFlipBound(
    setting.gap,
    setting.tolerance,
    failure,
    setting.auditMinoritySize,
    setting.candidateMinoritySize,
  );
  const finite = finitePopulationFlipBound(setting.gap, setting.tolerance, failure, {
    auditGroupSizes: [setting.auditMinoritySize, setting.auditSetSize - setting.auditMinoritySize],
    candidateGroupSizes: [setting.candidateMinoritySize, setting.candidateSetSize - setting.candidateMinoritySize],
  });
  return {
    vanilla: { flips: vanillaFlips, detection: detections(vanillaFlips, setting.auditSetSize, setting) },
    respir: {
      flips: respir.flips,
      bestEffort: respir.bestEffort,
      detection: detections(respir.flips, setting.candidateSetSize, setting),
    },
    details: {
      margin: respir.margin,
      targetGap: respir.targetGap,
      finitePopulation: { ...finite, detection: detections(finite.flips, setting.candidateSetSize, setting) },
    },
  };
}

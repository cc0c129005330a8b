import { countGapExceedsTolerance, decimalFraction } from '../../stats/count-gap-comparison.js';
import type { Random } from '../../util/random.js';
import { hypergeometricKernel } from '../hypergeometric.js';
import { logFactorialTable } from '../log-factorial-table.js';
import { multivariateHypergeometricKernel } from '../multivariate-hypergeometric.js';
import {
  type MultiGroupForm,
  multiGroupFinitePopulationMargin,
  multiGroupHoeffdingMargin,
} from './multi-group-margin.js';
import { windowMinimalFlips } from './window-minimal-flips.js';

/** One Monte Carlo check of a K-group sufficient condition (Theorem 1 or 4, either form, any metric). */
export interface MultiGroupBoundCheckSetting {
  /** N_g: rows of each group in C. */
  readonly groupSizes: readonly number[];
  /** E_g: the metric's rows of each group in C (all, label = 1 or label = 0 rows). */
  readonly metricSizes: readonly number[];
  /** Decision-1 rows among each group's metric rows, before manipulation. */
  readonly metricPositives: readonly number[];
  /** n_g of a stratified S, or null for a uniform S of `auditSetSize` rows. */
  readonly auditGroupSizes: readonly number[] | null;
  readonly auditSetSize: number;
  readonly form: MultiGroupForm;
  /** ε (difference form). */
  readonly tolerance: number;
  /** 1 − δ. */
  readonly passProbability: number;
  /**
   * Which sufficient condition: Theorem 1's Hoeffding margin, Theorem 4's finite-population
   * one, or `none` (margin 0: C on the edge of the threshold itself), the control that shows
   * the check can fail.
   */
  readonly margin: 'hoeffding' | 'finite-population' | 'none';
  readonly draws: number;
}

/** What the check measured. */
export interface MultiGroupBoundCheck {
  /** Flips the provider made on C: the exact fewest reaching the condition at the expected metric rows in S. */
  readonly flips: number;
  /** The target on C: max-gap ε − γ, or ratio slack γ, at the expected metric rows. */
  readonly target: number;
  /** Draws whose realised metric rows in S make the condition hold for C after the flips. */
  readonly conditionDraws: number;
  /** Of those, draws that pass (every group present, compared exactly). */
  readonly conditionPasses: number;
  /** Passes over all draws. */
  readonly passes: number;
}

function marginFor(setting: MultiGroupBoundCheckSetting, metricRows: readonly number[]): number {
  const failure = 1 - setting.passProbability;
  if (setting.margin === 'none') return 0;
  if (setting.margin === 'finite-population') {
    return multiGroupFinitePopulationMargin(
      failure,
      { auditGroupSizes: metricRows, candidateGroupSizes: setting.metricSizes },
      setting.form,
    );
  }
  return multiGroupHoeffdingMargin(failure, metricRows.length, Math.min(...metricRows), setting.form);
}

/** The audit's decision on S's counts, exactly: every pair within ε, or min ≥ ρ·max. */
function passesExactly(form: MultiGroupForm, tolerance: number, sizes: Int32Array, positives: Int32Array): boolean {
  const groupCount = sizes.length;
  for (let i = 0; i < groupCount; i++) if (sizes[i] === 0) return false;
  if (form.kind === 'difference') {
    for (let i = 0; i < groupCount; i++) {
      for (let j = i + 1; j < groupCount; j++) {
        if (countGapExceedsTolerance(sizes[i], positives[i], sizes[j], positives[j], tolerance)) return false;
      }
    }
    return true;
  }
  const { numerator, denominator } = decimalFraction(form.ratio);
  for (let i = 0; i < groupCount; i++) {
    for (let j = 0; j < groupCount; j++) {
      const left = denominator * BigInt(positives[i]) * BigInt(sizes[j]);
      if (left < numerator * BigInt(positives[j]) * BigInt(sizes[i])) return false;
    }
  }
  return true;
}

/** Whether C's rates after the flips meet the condition at margin γ (doubles, as the bounds compute it). */
function conditionHolds(form: MultiGroupForm, tolerance: number, rates: readonly number[], margin: number): boolean {
  const minimum = Math.min(...rates);
  const maximum = Math.max(...rates);
  if (form.kind === 'difference') return maximum - minimum <= tolerance - margin;
  return minimum - form.ratio * maximum >= margin;
}

/**
 * checkMultiGroupBound(setting, random) is the Monte Carlo check of a K-group sufficient
 * condition: the provider makes the exact fewest flips on C's metric rows (windowMinimalFlips)
 * that reach the condition's target at metric rows of S 3 standard deviations below their
 * mean μ_g = E_g·n_g/N_g (⌊μ_g − 3√μ_g⌋, at least 1), so C sits on the condition's edge; then `draws` audit sets are
 * drawn
 * (n_g fixed, or multivariate hypergeometric for a uniform S), the metric rows m_g ~
 * Hypergeometric(N_g, E_g, n_g) and positives ~ Hypergeometric(E_g, P'_g, m_g), and each is
 * judged exactly. Theorems 1 and 4 condition on m_g, so the pass rate is counted over the
 * draws whose realised m_g make the condition hold (their margin computed from m_g): it must
 * be ≥ 1 − δ. O(draws·K·(1 + sd)). Inputs are trusted.
 * @param setting C, the design, the form, ε, 1 − δ, the margin and the number of draws
 * @param random the seeded generator of the draws
 * @returns the flips, the target, and the passes among the draws where the condition holds
 * @example
 * checkMultiGroupBound({ groupSizes: [2000, 1000, 500], metricSizes: [2000, 1000, 500],
 *   metricPositives: [1200, 400, 100], auditGroupSizes: [600, 300, 150], auditSetSize: 1050,
 *   form: { kind: 'difference' }, tolerance: 0.3, passProbability: 0.8, margin: 'finite-population', draws: 20000 },
 *   createRandom('check'));
 */
export function checkMultiGroupBound(setting: MultiGroupBoundCheckSetting, random: Random): MultiGroupBoundCheck {
  const groupCount = setting.groupSizes.length;
  const total = setting.groupSizes.reduce((sum, size) => sum + size, 0);
  const expectedAudit =
    setting.auditGroupSizes ?? setting.groupSizes.map((size) => (size * setting.auditSetSize) / total);
  // The provider aims at metric rows 3 standard deviations below their expectation in S,
  // so that the condition holds for most realised m_g (a larger m_g only shrinks the margin).
  const expectedMetric = expectedAudit.map((n, g) => {
    const mean = (n * setting.metricSizes[g]) / setting.groupSizes[g];
    return Math.max(1, Math.floor(mean - 3 * Math.sqrt(mean)));
  });
  const margin = marginFor(setting, expectedMetric);
  const target = setting.form.kind === 'difference' ? setting.tolerance - margin : margin;
  const counts = { sizes: setting.metricSizes, positives: setting.metricPositives };
  const manipulation = windowMinimalFlips(counts, setting.form, Math.max(0, target));
  const positives = manipulation?.positives ?? setting.metricPositives;
  const rates = positives.map((p, g) => p / setting.metricSizes[g]);
  const logFactorials = logFactorialTable(total);
  const groupSizes = Int32Array.from(setting.groupSizes);
  const audit = new Int32Array(groupCount);
  const metricRows = new Int32Array(groupCount);
  const drawnPositives = new Int32Array(groupCount);
  let conditionDraws = 0;
  let conditionPasses = 0;
  let passes = 0;
  for (let draw = 0; draw < setting.draws; draw++) {
    if (setting.auditGroupSizes === null) {
      multivariateHypergeometricKernel(random, logFactorials, groupSizes, 0, groupCount, setting.auditSetSize, audit);
    } else audit.set(setting.auditGroupSizes);
    for (let g = 0; g < groupCount; g++) {
      metricRows[g] = hypergeometricKernel(random, logFactorials, groupSizes[g], setting.metricSizes[g], audit[g]);
      drawnPositives[g] = hypergeometricKernel(
        random,
        logFactorials,
        setting.metricSizes[g],
        positives[g],
        metricRows[g],
      );
    }
    const passed = passesExactly(setting.form, setting.tolerance, metricRows, drawnPositives);
    if (passed) passes++;
    if (metricRows.every((rows) => rows > 0)) {
      if (conditionHolds(setting.form, setting.tolerance, rates, marginFor(setting, Array.from(metricRows)))) {
        conditionDraws++;
        if (passed) conditionPasses++;
      }
    }
  }
  return { flips: manipulation?.flips ?? 0, target, conditionDraws, conditionPasses, passes };
}

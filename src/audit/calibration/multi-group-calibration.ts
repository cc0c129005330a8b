import { MultiGroupGlrStream } from '../../stats/multi-group/multi-group-glr-stream.js';
import { MultiGroupGlrTest } from '../../stats/multi-group/multi-group-glr-test.js';
import { checkErrorLevels } from '../../stats/thresholds.js';
import { inputError } from '../../util/errors.js';
import { createRandom, deriveSeed, type Random } from '../../util/random.js';
import { type Certification, certifyOutcomes } from './calibrate-glr-thresholds.js';
import type { OutcomeCounts } from './calibration-chunks.js';
import { type CalibrationPlan, DEFAULT_THRESHOLD_GRID } from './calibration-plan.js';
import { chooseThresholds, type ThresholdChoice } from './choose-thresholds.js';
import { type MultiGroupConfiguration, multiGroupConfigurations } from './multi-group-configurations.js';
import { emptyPathCounts, PathExtremes, type ThresholdGrid, type ThresholdPathCounts } from './threshold-paths.js';

/** The K-group audit whose GLR thresholds are calibrated (decision access, difference null). */
export interface MultiGroupCalibrationSetting {
  readonly groupSizes: readonly number[];
  readonly tolerance: number;
  readonly budget: number;
  readonly minimumPerGroup: number;
  readonly alpha: number;
  readonly beta: number;
}

/** How much Monte Carlo. */
export interface MultiGroupCalibrationOptions {
  readonly seed: string;
  /** Simulated audits per configuration, for tuning and again for certification (default 1000). */
  readonly paths?: number;
  /** Where the window's bottom sits (default 0.02, 0.5 - tolerance/2, 0.98 - tolerance). */
  readonly bottoms?: readonly number[];
  readonly grid?: ThresholdGrid;
  /** Monte Carlo confidence of the certificate, simultaneous over configurations (default 0.95). */
  readonly confidence?: number;
}

/** What calibrateMultiGroupThresholds found. */
export interface MultiGroupCalibration {
  readonly upper: number;
  readonly lower: number;
  /** True when fresh simulations bounded every configuration's error by alpha and beta (Clopper-Pearson). */
  readonly certified: boolean;
  readonly choice: ThresholdChoice;
  readonly certification: Certification;
  readonly configurations: readonly MultiGroupConfiguration[];
}

/**
 * Simulates one audit of a count configuration in random query order (group drawn in
 * proportion to its rows left, then the decision among that group's rows left: the law of
 * querying a shuffled pool) and feeds each query to `observe`, which returns true to stop.
 */
function simulatePath(
  sizes: readonly number[],
  positives: readonly number[],
  left: Float64Array,
  ones: Float64Array,
  budget: number,
  random: Random,
  observe: (group: number, value: number) => boolean,
): number {
  const k = sizes.length;
  let remaining = 0;
  for (let g = 0; g < k; g++) {
    left[g] = sizes[g];
    ones[g] = positives[g];
    remaining += sizes[g];
  }
  const cap = Math.min(budget, remaining);
  for (let t = 0; t < cap; t++) {
    let pick = random() * remaining;
    let g = 0;
    while (g < k - 1 && pick >= left[g]) pick -= left[g++];
    const value = random() * left[g] < ones[g] ? 1 : 0;
    left[g]--;
    ones[g] -= value;
    remaining--;
    if (observe(g, value)) return t + 1;
  }
  return cap;
}

/** The calibration laid out as the two-group plan chooseThresholds and certifyOutcomes read. */
function planOf(
  setting: MultiGroupCalibrationSetting,
  configurations: readonly MultiGroupConfiguration[],
  options: MultiGroupCalibrationOptions,
  paths: number,
  grid: ThresholdGrid,
): CalibrationPlan {
  const sizes = setting.groupSizes;
  return {
    setting: {
      access: 'decision',
      countA: Math.min(...sizes),
      countB: Math.max(...sizes),
      tolerance: setting.tolerance,
      budget: setting.budget,
      minimumPerGroup: setting.minimumPerGroup,
      order: 'random',
      alpha: setting.alpha,
      beta: setting.beta,
    },
    seed: options.seed,
    paths,
    certificationPaths: paths,
    confidence: options.confidence ?? 0.95,
    grid,
    rounds: 1,
    chunkPaths: paths,
    baseRates: [],
    cells: configurations.map((c) => ({ key: c.key, role: c.role, gap: c.gap, counts: null, lowerRate: Number.NaN })),
    chunks: [],
    priceCells: [],
  };
}

function checkSetting(setting: MultiGroupCalibrationSetting): void {
  const where = 'calibrateMultiGroupThresholds';
  const sizes = setting.groupSizes;
  if (!(sizes.length >= 2 && sizes.every((n) => Number.isSafeInteger(n) && n >= 1)))
    throw inputError({ where: `${where}: groupSizes`, expected: 'two or more integers >= 1', found: sizes });
  if (!(setting.tolerance > 0 && setting.tolerance < 1))
    throw inputError({ where: `${where}: tolerance`, expected: 'a number in (0, 1)', found: setting.tolerance });
  for (const key of ['budget', 'minimumPerGroup'] as const)
    if (!(Number.isSafeInteger(setting[key]) && setting[key] >= 1))
      throw inputError({ where: `${where}: ${key}`, expected: 'an integer >= 1', found: setting[key] });
  checkErrorLevels(setting.alpha, setting.beta, where);
}

/**
 * calibrateMultiGroupThresholds(setting, options) finds thresholds for the K-group Bernoulli
 * GLR (difference null) such that, by Monte Carlo, every simulated compliant configuration is
 * falsely rejected with probability <= alpha and every configuration just beyond the
 * tolerance falsely accepted with probability <= beta, as the two-group calibration does
 * over its base-rate grid: the configurations are multiGroupConfigurations (the searched
 * layouts at three window positions); `paths` audits of each are summarised for every
 * threshold pair of the grid (PathExtremes), chooseThresholds picks the most decisive pair,
 * and `paths` fresh audits of each with the exhaustion rule certify it (certifyOutcomes,
 * Clopper-Pearson simultaneous over configurations). One round: an uncertified result says
 * so. Seeds: deriveSeed(seed, stage, configuration). O(configurations x paths x budget)
 * K-group GLR updates. Throws InputError for a bad setting and when no threshold pair meets
 * alpha and beta (chooseThresholds).
 * @param setting group sizes, tolerance, budget, start rule, alpha and beta
 * @param options seed and Monte Carlo size
 * @returns the thresholds, the certificate and the configurations simulated
 * @example
 * const { upper, lower } = calibrateMultiGroupThresholds({ groupSizes: [300, 200, 40], tolerance: 0.1, budget: 540,
 * minimumPerGroup: 1, alpha: 0.05, beta: 0.2 }, { seed: 'audit' });
 */
export function calibrateMultiGroupThresholds(
  setting: MultiGroupCalibrationSetting,
  options: MultiGroupCalibrationOptions,
): MultiGroupCalibration {
  checkSetting(setting);
  const { groupSizes, tolerance, budget, minimumPerGroup } = setting;
  const paths = options.paths ?? 1000;
  const grid = options.grid ?? DEFAULT_THRESHOLD_GRID;
  const bottoms = options.bottoms ?? [0.02, 0.5 - tolerance / 2, 0.98 - tolerance];
  const configurations = multiGroupConfigurations(groupSizes, tolerance, bottoms);
  const plan = planOf(setting, configurations, options, paths, grid);
  const k = groupSizes.length;
  const left = new Float64Array(k);
  const ones = new Float64Array(k);
  const stream = new MultiGroupGlrStream(k, 'bernoulli', 1, tolerance);
  const tuning: ThresholdPathCounts[] = configurations.map((cell, index) => {
    const recordNull = cell.role === 'null';
    const counts = emptyPathCounts(grid, recordNull, !recordNull);
    const extremes = new PathExtremes(grid, recordNull, !recordNull);
    const random = createRandom(deriveSeed(options.seed, 'tune', index));
    for (let path = 0; path < paths; path++) {
      stream.reset();
      extremes.start();
      simulatePath(groupSizes, cell.positives, left, ones, budget, random, (group, value) => {
        stream.add(group, value);
        if (!stream.ready) return false;
        const counts = stream.groupCounts;
        for (let g = 0; g < k; g++) if (counts[g] < minimumPerGroup) return false;
        return extremes.observe(stream.statistic);
      });
      extremes.finish(counts);
    }
    return counts;
  });
  const choice = chooseThresholds(plan, tuning);
  const exhaustion = { groupSizes, values: 'counts' as const };
  const test = new MultiGroupGlrTest(stream, choice.upper, choice.lower, minimumPerGroup, exhaustion, tolerance);
  const outcomes: OutcomeCounts[] = configurations.map((cell, index) => {
    const random = createRandom(deriveSeed(options.seed, 'certify', index));
    const outcome = { paths, reject: 0, accept: 0, inconclusive: 0, queries: 0 };
    for (let path = 0; path < paths; path++) {
      test.reset();
      outcome.queries += simulatePath(groupSizes, cell.positives, left, ones, budget, random, (group, value) => {
        test.add(group, value);
        return test.verdict !== 0;
      });
      if (test.verdict === 1) outcome.reject++;
      else if (test.verdict === -1) outcome.accept++;
      else outcome.inconclusive++;
    }
    return outcome;
  });
  const certification = certifyOutcomes(plan, choice, outcomes, 0, choice.testConfidence);
  return {
    upper: choice.upper,
    lower: choice.lower,
    certified: certification.passed,
    choice,
    certification,
    configurations,
  };
}

import { complianceWindow, type MultiGroupAggregation } from '../stats/multi-group/compliance-window.js';
import { EqualizedOddsTest } from '../stats/multi-group/equalized-odds-test.js';
import { MultiGroupBettingTest } from '../stats/multi-group/multi-group-betting-test.js';
import { MultiGroupGlrStream } from '../stats/multi-group/multi-group-glr-stream.js';
import { MultiGroupGlrTest } from '../stats/multi-group/multi-group-glr-test.js';
import type { SequentialTest } from '../stats/sequential-test.js';
import { checkErrorLevels, type SequentialThresholds, waldThresholds } from '../stats/thresholds.js';
import type { BettingUnits } from '../stats/two-sample-betting-test.js';
import { inputError } from '../util/errors.js';
import { type AccessRegime, accessFamily } from './access-regime.js';

/** The K-group tests: paper A's thresholds, calibrated thresholds, or the anytime-valid betting combination. */
export type MultiGroupTestName = 'wald-glr' | 'calibrated-glr' | 'betting';

/** What createMultiGroupTest needs. */
export interface MultiGroupTestOptions {
  /** Rows of each group in the metric's pool (SP: all rows; TPR: label-1 rows; FPR: label-0 rows). */
  readonly groupSizes: readonly number[];
  readonly test: MultiGroupTestName;
  readonly access: AccessRegime;
  /** 'difference': max - min <= tolerance; 'ratio': min / max >= tolerance (e.g. 0.8, the four-fifths rule). */
  readonly aggregation: MultiGroupAggregation;
  /** δ (difference) or ρ (ratio). */
  readonly tolerance: number;
  readonly alpha: number;
  readonly beta: number;
  /** GLR tests: observations every group needs before a decision (default 1). */
  readonly minimumPerGroup?: number;
  /** 'calibrated-glr': thresholds from calibrateMultiGroupThresholds (required). */
  readonly thresholds?: SequentialThresholds;
  /** 'betting': how draws form betting units (default 'proportional', for random query order). */
  readonly units?: BettingUnits;
}

/** A K-group test and its guarantee in words. */
export interface MultiGroupTest {
  readonly test: SequentialTest;
  readonly guarantee: string;
}

const WHERE = 'createMultiGroupTest';

function checkOptions(options: MultiGroupTestOptions): void {
  const sizes = options.groupSizes;
  if (!(Array.isArray(sizes) && sizes.length >= 2 && sizes.length <= 255)) {
    throw inputError({ where: `${WHERE}: groupSizes`, expected: 'rows of 2 to 255 groups', found: sizes });
  }
  sizes.forEach((size, g) => {
    if (!(Number.isSafeInteger(size) && size >= 1))
      throw inputError({ where: `${WHERE}: groupSizes[${g}]`, expected: 'an integer >= 1', found: size });
  });
  checkErrorLevels(options.alpha, options.beta, WHERE);
  const minimum = options.minimumPerGroup ?? 1;
  if (!(Number.isSafeInteger(minimum) && minimum >= 1))
    throw inputError({ where: `${WHERE}: minimumPerGroup`, expected: 'an integer >= 1', found: minimum });
  if (options.test === 'betting') {
    if (options.aggregation !== 'difference' || options.access === 'logit') {
      throw inputError({
        where: `${WHERE}: test`,
        expected: "'wald-glr' or 'calibrated-glr' (the betting test covers the difference of values in [0, 1])",
        found: `betting with ${options.aggregation} on ${options.access}`,
      });
    }
  } else if (options.test === 'calibrated-glr') {
    if (options.thresholds === undefined)
      throw inputError({
        where: `${WHERE}: thresholds`,
        expected: 'calibrated thresholds (calibrateMultiGroupThresholds)',
        found: undefined,
      });
  } else if (options.test !== 'wald-glr') {
    throw inputError({
      where: `${WHERE}: test`,
      expected: "'wald-glr', 'calibrated-glr' or 'betting'",
      found: options.test,
    });
  }
}

/**
 * createMultiGroupTest(options) builds a K-group sequential test (groups 0..K-1, add(group,
 * value)) after validating its options, with its guarantee in words:
 * - 'wald-glr': paper A's Wald thresholds on the K-group GLR; no error guarantee;
 * - 'calibrated-glr': the K-group GLR at Monte Carlo calibrated thresholds, deciding a pool
 *   read to its end exactly;
 * - 'betting': the average of the pairwise one-sided betting e-processes (MultiGroupBettingTest):
 *   P(false violation) <= alpha and P(false compliance) <= beta at any stopping time, for a
 *   uniformly random query order.
 * O(K^2) to build the betting test's pairs, O(K) otherwise. Throws InputError naming the key:
 * fewer than 2 or more than 255 groups, a group size that is not an integer >= 1, bad alpha or
 * beta, a bad tolerance for the aggregation, betting on a ratio or on logits, calibrated-glr
 * without thresholds.
 * @param options the groups' sizes, the test, the access, the null and the error levels
 * @returns the test and its guarantee
 * @example
 * const { test } = createMultiGroupTest({ groupSizes: [600, 300, 100], test: 'betting', access: 'decision',
 * aggregation: 'difference', tolerance: 0.05, alpha: 0.05, beta: 0.2 });
 */
export function createMultiGroupTest(options: MultiGroupTestOptions): MultiGroupTest {
  checkOptions(options);
  const { groupSizes, access, aggregation, tolerance, alpha, beta } = options;
  const window = complianceWindow(aggregation, tolerance, WHERE, access === 'logit');
  const null_ = aggregation === 'difference' ? `max - min <= ${tolerance}` : `min / max >= ${tolerance}`;
  if (options.test === 'betting') {
    const test = new MultiGroupBettingTest({
      groupSizes,
      tolerance,
      alpha,
      beta,
      units: options.units ?? 'proportional',
      integerValues: access === 'decision',
    });
    return {
      test,
      guarantee:
        `betting over ${groupSizes.length} groups: P(reject H0: ${null_}) <= ${alpha} when it holds and ` +
        `P(accept) <= ${beta} when it fails, at any stopping time (random query order)`,
    };
  }
  const stream = new MultiGroupGlrStream(groupSizes.length, accessFamily(access), window.scale, window.shift);
  const minimum = options.minimumPerGroup ?? 1;
  if (options.test === 'wald-glr') {
    const { upper, lower } = waldThresholds(alpha, beta);
    return {
      test: new MultiGroupGlrTest(stream, upper, lower, minimum, null, tolerance),
      guarantee:
        `wald-glr over ${groupSizes.length} groups (paper A's ` +
        `thresholds ${upper.toFixed(3)}, ${lower.toFixed(3)} on the K-group GLR): no error guarantee`,
    };
  }
  const { upper, lower } = options.thresholds as SequentialThresholds;
  const values = access === 'decision' ? 'counts' : 'means';
  return {
    test: new MultiGroupGlrTest(stream, upper, lower, minimum, { groupSizes, values }, tolerance),
    guarantee:
      `calibrated-glr over ${groupSizes.length} groups (thresholds ${upper}, ${lower}): P(false ` +
      `violation) <= ${alpha} and P(false compliance) <= ${beta} at the simulated configurations, by Monte Carlo`,
  };
}

/**
 * createEqualizedOddsTest(falsePositive, truePositive) builds the equalized-odds test: the
 * test of the FPR gap (options for the label-0 rows) and of the TPR gap (label-1 rows), each
 * at alpha / 2 and the full beta (EqualizedOddsTest: reject if either rejects, accept once
 * both accept). Add rows as add(label * K + group, value). Throws InputError as
 * createMultiGroupTest, and when the two sides' group counts differ.
 * @param falsePositive options of the label-0 side (alpha is the whole test's)
 * @param truePositive options of the label-1 side (alpha is the whole test's)
 * @returns the combined test and its guarantee
 * @example
 * const { test } = createEqualizedOddsTest({ ...options, groupSizes: [500, 300, 80] }, { ...options, groupSizes: [400,
 * 200, 60] });
 */
export function createEqualizedOddsTest(
  falsePositive: MultiGroupTestOptions,
  truePositive: MultiGroupTestOptions,
): MultiGroupTest {
  const groupCount = falsePositive.groupSizes.length;
  if (truePositive.groupSizes.length !== groupCount) {
    throw inputError({
      where: 'createEqualizedOddsTest: groupSizes',
      expected: `as many label-1 groups as label-0 groups (${groupCount})`,
      found: truePositive.groupSizes.length,
    });
  }
  const fpr = createMultiGroupTest({ ...falsePositive, alpha: falsePositive.alpha / 2 });
  const tpr = createMultiGroupTest({ ...truePositive, alpha: truePositive.alpha / 2 });
  return {
    test: new EqualizedOddsTest(fpr.test, tpr.test, groupCount),
    guarantee:
      `equalized odds: reject if either rate's test rejects (each at alpha / 2), accept once both ` +
      `accept. FPR: ${fpr.guarantee}. TPR: ${tpr.guarantee}`,
  };
}

import { type SequentialThresholds, thresholdsProblem } from '../stats/thresholds.js';
import type { CrossKeyProblem } from '../util/schema.js';
import type { AccessRegime } from './access-regime.js';
import { isShuffledOrder } from './query-order.js';

/**
 * The sequential tests an audit can run (the `test` setting, `--test`):
 * - 'wald-glr': paper A's GLR with Wald's thresholds log((1-beta)/alpha), log(beta/(1-alpha));
 *   operational, not calibrated: its error rates are what docs/error-control.md measures;
 * - 'calibrated-glr': the same GLR with thresholds calibrated by Monte Carlo so that
 *   sup P(reject) <= alpha over compliant pools and sup P(accept) <= beta over violating
 *   ones, for the audit's group sizes, budget, start rule and order (calibrateGlrThresholds);
 * - 'given-thresholds': the same GLR with thresholds {upper, lower} given by hand (from
 *   another pool, setting or paper): no error guarantee, since nothing ties them to this
 *   audit's setting; it runs under its own name so no output calls it calibrated;
 * - 'betting': TwoSampleBettingTest, anytime-valid for values in [0, 1] (decisions, scores;
 *   logits only with declared logitBounds);
 * - 'confidence-sequence': GapConfidenceSequenceTest, anytime-valid but weaker than betting;
 *   the one whose state is a reportable confidence interval for the gap.
 */
export const TEST_NAMES = ['wald-glr', 'calibrated-glr', 'given-thresholds', 'betting', 'confidence-sequence'] as const;
/** The name of a sequential test an audit can run: one of TEST_NAMES. */
export type TestName = (typeof TEST_NAMES)[number];

/**
 * continuationOf(test, budget) says what to do with an inconclusive audit that stopped at
 * its budget with rows left: for the anytime-valid tests, rerun it with the same seed and
 * a larger budget, which queries the same order (a replicate's order depends on its seed,
 * never on the budget: the first `budget` queries are the same), so it is one test
 * stopped later and keeps its guarantee; a fresh seed is a new test. The GLR tests have no
 * such continuation: a larger budget is a new calibration setting (calibrated-glr) or no
 * guarantee at all. O(1).
 * @param test the test that ran
 * @param budget the budget it ran with
 * @returns the advice, in words
 * @example continuationOf('betting', 4000) // "continue: the same seed with a budget above 4000 ..."
 */
export function continuationOf(test: TestName, budget: number): string {
  if (test === 'betting' || test === 'confidence-sequence') {
    return (
      `continue: the same seed with a budget above ${budget} continues these audits under their guarantee ` +
      `(the same order, queried further); a fresh seed is a new test, ` +
      `and rerunning with fresh seeds until one rejects inflates alpha`
    );
  }
  if (test === 'calibrated-glr') {
    return (
      `no continuation: a budget above ${budget} is a new setting with its own calibration, a new test; ` +
      `test betting can be continued`
    );
  }
  return 'no continuation: this test has no error guarantee to keep; test betting can be continued';
}

/** The words of a refusal (a vacuous calibration, a pool without variance): each names the test that can decide. */
export const CANNOT_DECIDE = 'this test cannot decide on this pool';

/** Whether a test is one of the GLRs with thresholds (Wald's, calibrated or given). O(1). */
export function isGlrTest(test: TestName): boolean {
  return test === 'wald-glr' || test === 'calibrated-glr' || test === 'given-thresholds';
}

/** The `thresholds` setting: Wald's (paper A), calibrated (from the calibration cache), or given. */
export type ThresholdsSetting = 'wald' | 'calibrated' | SequentialThresholds;

/** The settings that choose an audit's test, as the schema leaves them (absent keys undefined). */
export interface TestChoice {
  readonly test?: TestName;
  readonly thresholds?: ThresholdsSetting;
}

/**
 * testOf(settings) is the test an audit's settings select: `test` when given, otherwise
 * the GLR whose thresholds `thresholds` names: 'wald-glr' when it is absent or 'wald'
 * (paper A's test, the default), 'calibrated-glr' when it is 'calibrated', and
 * 'given-thresholds' when it is given numbers {upper, lower}. O(1).
 */
export function testOf(settings: TestChoice): TestName {
  if (settings.test !== undefined) return settings.test;
  if (settings.thresholds === undefined || settings.thresholds === 'wald') return 'wald-glr';
  return settings.thresholds === 'calibrated' ? 'calibrated-glr' : 'given-thresholds';
}

/**
 * The start rule of calibrated-glr under score or logit access when minimumPerGroup is not
 * set: 5 observations per group. With paper A's rule of 1 the profiled variance of the
 * Gaussian proxy GLR is degenerate for the first few queries (docs/core.md, "Small samples
 * and minimumPerGroup"), so calibrated thresholds would have to absorb those early spikes.
 */
export const CALIBRATED_PROXY_START = 5;

/**
 * startRuleOf(test, access, minimumPerGroup) is the number of observations each group
 * needs before the test may decide: minimumPerGroup when set; otherwise
 * CALIBRATED_PROXY_START (5) for calibrated-glr with score or logit access, and paper A's
 * 1 for everything else (wald-glr keeps paper A's rule). O(1).
 */
export function startRuleOf(test: TestName, access: AccessRegime, minimumPerGroup?: number): number {
  if (minimumPerGroup !== undefined) return minimumPerGroup;
  return (test === 'calibrated-glr' || test === 'given-thresholds') && access !== 'decision'
    ? CALIBRATED_PROXY_START
    : 1;
}

/** The keys testSettingsProblem reads. */
export interface TestSettingsInput extends TestChoice {
  readonly access: AccessRegime;
  readonly order?: string;
  readonly logitBounds?: { readonly lower: number; readonly upper: number };
  readonly logitTolerance?: number;
}

/**
 * testSettingsProblem(settings) is the one rule across the keys that choose a test (the
 * audit settings' schema, createSequentialTest and `fairaudit audit` all use it); returns
 * the first problem as {key, expected, found}, or undefined:
 * - `thresholds` belongs to the GLR tests: wald-glr takes only 'wald', calibrated-glr
 *   'calibrated' or {upper, lower} (thresholdsProblem: finite, upper > 0 > lower), the
 *   betting and confidence-sequence tests none;
 * - calibrated thresholds, and the betting and confidence-sequence tests, need rows in random order ('random' or
 *   'balanced', not the pool's own order), and with logit access declared `logitBounds`
 *   (logits are unbounded; no finite-sample guarantee holds without a bound) with
 *   lower < upper and logitTolerance / (upper - lower) < 1.
 * O(1).
 */
export function testSettingsProblem(settings: TestSettingsInput): CrossKeyProblem | undefined {
  const test = testOf(settings);
  const { thresholds } = settings;
  if (thresholds !== undefined) {
    if (test === 'wald-glr' && thresholds !== 'wald') {
      return {
        key: 'thresholds',
        expected: '"wald" or nothing with test wald-glr (calibrated or given thresholds: test calibrated-glr)',
        found: thresholds,
      };
    }
    if (test === 'calibrated-glr' && thresholds !== 'calibrated') {
      return {
        key: 'thresholds',
        expected:
          '"calibrated" or nothing with test calibrated-glr (its thresholds come from a calibration record of ' +
          'this setting; given {upper, lower}: test given-thresholds, without an error guarantee; ' +
          "Wald's: test wald-glr)",
        found: thresholds,
      };
    }
    if (test === 'given-thresholds' && typeof thresholds !== 'object') {
      return {
        key: 'thresholds',
        expected: '{upper, lower} with test given-thresholds (--upper and --lower)',
        found: thresholds,
      };
    }
    if (test === 'betting' || test === 'confidence-sequence') {
      return {
        key: 'thresholds',
        expected: `nothing with test ${test} (thresholds belong to the GLR tests)`,
        found: thresholds,
      };
    }
    if (typeof thresholds === 'object') {
      const problem = thresholdsProblem(thresholds);
      if (problem)
        return {
          key: problem.key === '' ? 'thresholds' : `thresholds.${problem.key}`,
          expected: problem.expected,
          found: problem.found,
        };
    }
  }
  if (test === 'given-thresholds' && thresholds === undefined) {
    return {
      key: 'thresholds',
      expected: '{upper, lower} with test given-thresholds (--upper and --lower)',
      found: undefined,
    };
  }
  if (
    test === 'calibrated-glr' &&
    (thresholds === undefined || thresholds === 'calibrated') &&
    settings.order === 'given'
  ) {
    return {
      key: 'order',
      expected: '"random" or "balanced" with calibrated thresholds (they are calibrated for rows drawn at random)',
      found: settings.order,
    };
  }
  if (test === 'betting' || test === 'confidence-sequence') {
    if (settings.order !== undefined && !isShuffledOrder(settings.order)) {
      return {
        key: 'order',
        expected: `"random" or "balanced" with test ${test} (its guarantee needs rows drawn at random)`,
        found: settings.order,
      };
    }
    if (settings.access === 'logit') {
      const bounds = settings.logitBounds;
      if (bounds === undefined) {
        return {
          key: 'logitBounds',
          expected:
            `declared bounds {lower, upper} of the logits with test ${test} and logit access (logits are ` +
            `unbounded; the test needs values in a known range)`,
          found: undefined,
        };
      }
      if (!(Number.isFinite(bounds.lower) && Number.isFinite(bounds.upper) && bounds.lower < bounds.upper)) {
        return { key: 'logitBounds', expected: 'finite numbers with lower < upper', found: bounds };
      }
      const width = bounds.upper - bounds.lower;
      if (settings.logitTolerance !== undefined && !(settings.logitTolerance / width < 1)) {
        return {
          key: 'logitTolerance',
          expected: `a tolerance below the width of logitBounds (${width})`,
          found: settings.logitTolerance,
        };
      }
    }
  }
  return undefined;
}

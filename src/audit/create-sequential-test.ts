import { BernoulliGlrStream } from '../stats/bernoulli-glr-stream.js';
import { checkTolerance } from '../stats/check-tolerance.js';
import { GapConfidenceSequenceTest } from '../stats/gap-confidence-sequence-test.js';
import { GaussianGlrStream } from '../stats/gaussian-glr-stream.js';
import { type ExhaustionRule, GlrThresholdTest } from '../stats/glr-threshold-test.js';
import { GuardedGaussianGlrStream } from '../stats/guarded-gaussian-glr-stream.js';
import type { SequentialTest } from '../stats/sequential-test.js';
import { checkErrorLevels, type SequentialThresholds, waldThresholds } from '../stats/thresholds.js';
import { TwoSampleBettingTest } from '../stats/two-sample-betting-test.js';
import { inputError } from '../util/errors.js';
import { isGlrTest, startRuleOf, TEST_NAMES, type TestName, testSettingsProblem } from './audit-test.js';
import type { PreparedAudit } from './prepare-audit.js';
import type { QueryOrder } from './query-order.js';

export { TEST_NAMES, type TestName } from './audit-test.js';

/** What createSequentialTest needs beyond the prepared pool. */
export interface TestSettings {
  readonly test: TestName;
  /** delta (decision) or the proxy tolerance (score, logit). */
  readonly tolerance: number;
  readonly alpha: number;
  readonly beta: number;
  /** GLR tests: start once each group has this many observations (default startRuleOf: 1, or 5 for calibrated-glr on
   * scores or logits). */
  readonly minimumPerGroup?: number;
  readonly order: QueryOrder;
  /** 'calibrated-glr': the calibrated thresholds; 'given-thresholds': the given ones. */
  readonly thresholds?: SequentialThresholds;
  /**
   * Betting / confidence-sequence tests with logit access: a range the auditor declares
   * every logit lies in. Logits are rescaled to [0, 1] by (z - lower) / (upper - lower) and
   * the tolerance by 1 / (upper - lower); the guarantee is then about the mean logit gap,
   * and holds only if the declared range does hold: a queried logit outside it stops the
   * audit with an InputError.
   */
  readonly logitBounds?: { readonly lower: number; readonly upper: number };
}

/** Rescales values into [0, 1] for a bounded-value test and refuses values outside the declared range. */
class RescaledTest implements SequentialTest {
  constructor(
    private readonly inner: SequentialTest,
    private readonly lower: number,
    private readonly width: number,
    private readonly source: string,
  ) {}

  get verdict(): number {
    return this.inner.verdict;
  }

  reset(): void {
    this.inner.reset();
  }

  /** The inner test's gap interval on the logit scale (the rescaling is linear: a gap scales by the width). */
  gapInterval(): readonly [number, number] {
    const inner = this.inner.gapInterval?.() ?? [Number.NaN, Number.NaN];
    return [inner[0] * this.width, inner[1] * this.width];
  }

  add(group: number, value: number): void {
    const unit = (value - this.lower) / this.width;
    if (!(unit >= 0 && unit <= 1)) {
      throw inputError({
        where: `${this.source}: logit of a queried row of group ${group === 0 ? 'a' : 'b'}`,
        expected:
          `a value within the declared logit bounds [${this.lower}, ${this.lower + this.width}] (the ` +
          `betting test's guarantee needs them)`,
        found: value,
      });
    }
    this.inner.add(group, unit);
  }
}

/**
 * createSequentialTest(prepared, settings) validates the settings for the pool's access
 * regime (the rules of testSettingsProblem, shared with the audit settings' schema) and
 * builds the test (makeSequentialTest), sized for the pool's groups, with the start rule
 * startRuleOf gives. O(1), or O(pool size) buffers for the betting test. Throws InputError
 * naming the setting: an unknown test, a tolerance out of range (decision and score (0, 1);
 * logit > 0), bad alpha / beta, missing or bad thresholds for calibrated-glr (upper <=
 * lower), minimumPerGroup not an integer >= 1, a betting or confidence-sequence test with
 * the pool's given order (it needs random sampling) or with logit access and no declared
 * logitBounds (logits are unbounded: no finite-sample guarantee exists without a bound),
 * or bounds that are not finite with lower < upper.
 */
export function createSequentialTest(prepared: PreparedAudit, settings: TestSettings): SequentialTest {
  if (!TEST_NAMES.includes(settings.test)) {
    throw inputError({ where: 'createSequentialTest: test', expected: TEST_NAMES.join(', '), found: settings.test });
  }
  const where = `test ${settings.test}`;
  checkTolerance(settings.tolerance, `${where}: tolerance`, prepared.access === 'logit' ? Number.POSITIVE_INFINITY : 1);
  checkErrorLevels(settings.alpha, settings.beta, where);
  const minimum = startRuleOf(settings.test, prepared.access, settings.minimumPerGroup);
  if (!(Number.isSafeInteger(minimum) && minimum >= 1)) {
    throw inputError({ where: `${where}: minimumPerGroup`, expected: 'an integer >= 1', found: minimum });
  }
  if (
    (settings.test === 'calibrated-glr' || settings.test === 'given-thresholds') &&
    settings.thresholds === undefined
  ) {
    throw inputError({
      where: `${where}: thresholds`,
      expected: `${settings.test === 'calibrated-glr' ? 'calibrated' : 'given'} {upper, lower} (fairaudit calibrate)`,
      found: undefined,
    });
  }
  // Here calibrated-glr's thresholds are numbers (the calibration's): checked as given ones are.
  const problem = testSettingsProblem({
    test: settings.test === 'calibrated-glr' ? 'given-thresholds' : settings.test,
    thresholds: settings.test === 'wald-glr' ? undefined : settings.thresholds,
    access: prepared.access,
    order: settings.order,
    logitBounds: settings.logitBounds,
    logitTolerance: settings.tolerance,
  });
  if (problem)
    throw inputError({ where: `${where}: ${problem.key}`, expected: problem.expected, found: problem.found });
  return makeSequentialTest(prepared, settings);
}

/**
 * makeSequentialTest(prepared, settings) builds the test createSequentialTest builds, on
 * settings already validated (by createSequentialTest, or by the audit settings' schema and
 * its cross-key rule testSettingsProblem: buildAuditTest). calibrated-glr decides exactly
 * once the metric's pool is read to its end (GlrThresholdTest's exhaustion rule); wald-glr
 * keeps paper A's inconclusive. Kernel: no validation; calibrated-glr needs its thresholds. O(1), or O(pool size)
 * buffers for the betting test.
 */
export function makeSequentialTest(prepared: PreparedAudit, settings: TestSettings): SequentialTest {
  const minimum = startRuleOf(settings.test, prepared.access, settings.minimumPerGroup);
  // Paper A's test keeps its own start (a positive variance); the others start on a non-negligible one.
  const glrStream = () =>
    prepared.family === 'bernoulli'
      ? new BernoulliGlrStream()
      : settings.test === 'wald-glr'
        ? new GaussianGlrStream()
        : new GuardedGaussianGlrStream();
  if (isGlrTest(settings.test)) {
    const { upper, lower } =
      settings.test === 'wald-glr'
        ? waldThresholds(settings.alpha, settings.beta)
        : (settings.thresholds as SequentialThresholds);
    // wald-glr keeps paper A's rule (inconclusive when the pool runs out); the others decide the known gap exactly.
    const exhaustion: ExhaustionRule | null =
      settings.test === 'wald-glr'
        ? null
        : {
            countA: prepared.countA,
            countB: prepared.countB,
            values: prepared.family === 'bernoulli' ? 'counts' : 'means',
          };
    return new GlrThresholdTest(glrStream(), settings.tolerance, upper, lower, minimum, exhaustion);
  }
  const bounds = prepared.access === 'logit' ? settings.logitBounds : undefined;
  const lower = bounds?.lower ?? 0;
  const width = bounds === undefined ? 1 : bounds.upper - bounds.lower;
  const tolerance = settings.tolerance / width;
  const integerValues = prepared.access === 'decision';
  const inner =
    settings.test === 'betting'
      ? new TwoSampleBettingTest({
          countA: prepared.countA,
          countB: prepared.countB,
          tolerance,
          alpha: settings.alpha,
          beta: settings.beta,
          units: settings.order === 'balanced' ? 'alternating' : 'proportional',
          integerValues,
        })
      : new GapConfidenceSequenceTest(
          prepared.countA,
          prepared.countB,
          tolerance,
          settings.alpha,
          settings.beta,
          integerValues,
        );
  return bounds !== undefined ? new RescaledTest(inner, lower, width, prepared.source) : inner;
}

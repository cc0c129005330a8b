import { BernoulliGlrStream } from '../stats/bernoulli-glr-stream.js';
import { checkTolerance } from '../stats/check-tolerance.js';
import { GapConfidenceSequenceTest } from '../stats/gap-confidence-sequence-test.js';
import { GaussianGlrStream } from '../stats/gaussian-glr-stream.js';
import { GlrThresholdTest } from '../stats/glr-threshold-test.js';
import type { SequentialTest } from '../stats/sequential-test.js';
import { checkErrorLevels, checkThresholds, type SequentialThresholds, waldThresholds } from '../stats/thresholds.js';
import { TwoSampleBettingTest } from '../stats/two-sample-betting-test.js';
import { inputError } from '../util/errors.js';
import type { PreparedAudit } from './prepare-audit.js';
import type { QueryOrder } from './run-test-audit.js';

/**
 * The sequential tests an audit can run:
 * - 'wald-glr': paper A's GLR with Wald's thresholds log((1-beta)/alpha), log(beta/(1-alpha));
 * - 'calibrated-glr': the same GLR with thresholds from calibrateGlrThresholds;
 * - 'betting': TwoSampleBettingTest, anytime-valid (P(reject) <= alpha on compliant pools,
 *   P(accept) <= beta on violating ones) for values in [0, 1];
 * - 'confidence-sequence': GapConfidenceSequenceTest, anytime-valid, weaker than betting.
 */
export type TestName = 'wald-glr' | 'calibrated-glr' | 'betting' | 'confidence-sequence';
export const TEST_NAMES: readonly TestName[] = ['wald-glr', 'calibrated-glr', 'betting', 'confidence-sequence'];

/** What createSequentialTest needs beyond the prepared pool. */
export interface TestSettings {
  readonly test: TestName;
  /** delta (decision) or the proxy tolerance (score, logit). */
  readonly tolerance: number;
  readonly alpha: number;
  readonly beta: number;
  /** GLR tests: start once each group has this many observations (default 1, paper A). */
  readonly minimumPerGroup?: number;
  readonly order: QueryOrder;
  /** 'calibrated-glr': the calibrated thresholds. */
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

  add(group: number, value: number): void {
    const unit = (value - this.lower) / this.width;
    if (!(unit >= 0 && unit <= 1)) {
      throw inputError({
        where: `${this.source}: logit of a queried row of group ${group === 0 ? 'a' : 'b'}`,
        expected: `a value within the declared logit bounds [${this.lower}, ${this.lower + this.width}] (the betting test's guarantee needs them)`,
        found: value,
      });
    }
    this.inner.add(group, unit);
  }
}

/**
 * createSequentialTest(prepared, settings) validates the settings for the pool's access
 * regime and builds the test, sized for the pool's groups. O(1), or O(pool size) buffers
 * for the betting test. Throws InputError naming the setting: a tolerance out of range
 * (decision and score (0, 1); logit > 0), bad alpha / beta, missing or bad thresholds for
 * calibrated-glr (upper <= lower), minimumPerGroup not an integer >= 1, a betting or
 * confidence-sequence test with the pool's given order (it needs random sampling) or with
 * logit access and no declared logitBounds (logits are unbounded: no finite-sample
 * guarantee exists without a bound), or bounds that are not finite with lower < upper.
 */
export function createSequentialTest(prepared: PreparedAudit, settings: TestSettings): SequentialTest {
  const where = `test ${settings.test}`;
  checkTolerance(settings.tolerance, `${where}: tolerance`, prepared.access === 'logit' ? Number.POSITIVE_INFINITY : 1);
  checkErrorLevels(settings.alpha, settings.beta, where);
  const minimum = settings.minimumPerGroup ?? 1;
  if (!(Number.isSafeInteger(minimum) && minimum >= 1)) {
    throw inputError({ where: `${where}: minimumPerGroup`, expected: 'an integer >= 1', found: minimum });
  }
  const glrStream = () => (prepared.family === 'bernoulli' ? new BernoulliGlrStream() : new GaussianGlrStream());
  switch (settings.test) {
    case 'wald-glr': {
      const { upper, lower } = waldThresholds(settings.alpha, settings.beta);
      return new GlrThresholdTest(glrStream(), settings.tolerance, upper, lower, minimum);
    }
    case 'calibrated-glr': {
      if (settings.thresholds === undefined) {
        throw inputError({ where: `${where}: thresholds`, expected: 'calibrated {upper, lower} (fairaudit calibrate)', found: undefined });
      }
      checkThresholds(settings.thresholds, `${where}: thresholds`);
      return new GlrThresholdTest(glrStream(), settings.tolerance, settings.thresholds.upper, settings.thresholds.lower, minimum);
    }
    case 'betting':
    case 'confidence-sequence': {
      if (settings.order !== 'random' && settings.order !== 'balanced') {
        throw inputError({ where: `${where}: order`, expected: '"random" or "balanced" (the guarantee needs rows sampled at random)', found: settings.order });
      }
      let tolerance = settings.tolerance;
      let lower = 0;
      let width = 1;
      if (prepared.access === 'logit') {
        const bounds = settings.logitBounds;
        if (bounds === undefined) {
          throw inputError({
            where: `${where}: logitBounds`,
            expected: 'a declared range {lower, upper} for the logits (they are unbounded; the test needs values in a known range)',
            found: undefined,
          });
        }
        if (!(Number.isFinite(bounds.lower) && Number.isFinite(bounds.upper) && bounds.lower < bounds.upper)) {
          throw inputError({ where: `${where}: logitBounds`, expected: 'finite numbers with lower < upper', found: bounds });
        }
        lower = bounds.lower;
        width = bounds.upper - bounds.lower;
        tolerance = settings.tolerance / width;
        checkTolerance(tolerance, `${where}: tolerance / (logitBounds.upper - logitBounds.lower)`, 1);
      }
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
          : new GapConfidenceSequenceTest(prepared.countA, prepared.countB, tolerance, settings.alpha, settings.beta, integerValues);
      return prepared.access === 'logit' ? new RescaledTest(inner, lower, width, prepared.source) : inner;
    }
    default:
      throw inputError({ where: 'test', expected: TEST_NAMES.join(', '), found: settings.test });
  }
}

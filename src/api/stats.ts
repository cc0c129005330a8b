/**
 * fairaudit/stats: the statistics, with no dependency on the rest of fairaudit but its
 * error type and seeded randomness: the Bernoulli and Gaussian GLR (one-shot and
 * streaming), the sequential thresholds and the one rules for error levels and given
 * thresholds, the sequential tests (the GLR with any thresholds, the two-sample betting
 * test, the confidence-sequence test and its without-replacement confidence sequence),
 * Clopper-Pearson bounds, exact comparisons of count gaps, and the fixed-sample decision.
 */
export { InputError } from '../util/errors.js';
export { createRandom, deriveSeed, type Random } from '../util/random.js';
export { type BernoulliCounts, bernoulliGlr } from '../stats/bernoulli-glr.js';
export { BernoulliGlrStream } from '../stats/bernoulli-glr-stream.js';
export { type GaussianSums, gaussianGlr } from '../stats/gaussian-glr.js';
export { GaussianGlrStream } from '../stats/gaussian-glr-stream.js';
export type { GlrStream } from '../stats/glr-stream.js';
export {
  checkErrorLevels,
  checkThresholds,
  errorLevelsProblem,
  type SequentialThresholds,
  sequentialThresholds,
  thresholdsProblem,
  waldThresholds,
} from '../stats/thresholds.js';
export { ACCEPT, CONTINUE, REJECT, type SequentialTest } from '../stats/sequential-test.js';
export { GlrThresholdTest } from '../stats/glr-threshold-test.js';
export {
  type BettingUnits,
  TwoSampleBettingTest,
  type TwoSampleBettingSettings,
} from '../stats/two-sample-betting-test.js';
export { WorConfidenceSequence } from '../stats/wor-confidence-sequence.js';
export { GapConfidenceSequenceTest } from '../stats/gap-confidence-sequence-test.js';
export { clopperPearsonLower, clopperPearsonUpper } from '../stats/clopper-pearson.js';
export { countGapDecision, countGapExceedsTolerance, decimalFraction } from '../stats/count-gap-comparison.js';
export { type FixedSampleDecision, fixedSampleDecision } from '../stats/fixed-sample-decision.js';

/**
 * fairaudit/stats: the statistics, with no dependency on the rest of fairaudit but its
 * error type and seeded randomness: the Bernoulli and Gaussian GLR (one-shot and
 * streaming), the sequential thresholds and the one rule for error levels, exact
 * comparisons of count gaps, and the fixed-sample decision.
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
  errorLevelsProblem,
  type SequentialThresholds,
  sequentialThresholds,
  waldThresholds,
} from '../stats/thresholds.js';
export { countGapDecision, countGapExceedsTolerance, decimalFraction } from '../stats/count-gap-comparison.js';
export { type FixedSampleDecision, fixedSampleDecision } from '../stats/fixed-sample-decision.js';

/**
 * fairaudit/stats: the statistics, with no dependency on the rest of fairaudit but its
 * error type and seeded randomness: the Bernoulli and Gaussian GLR (one-shot and
 * streaming), the sequential thresholds, the sequential tests (the GLR with any
 * thresholds, the two-sample betting test, the confidence-sequence test), Clopper-Pearson
 * bounds, the exact comparison of a count gap with a tolerance, and the fixed-sample decision.
 */

export { type BernoulliCounts, bernoulliGlr } from '../stats/bernoulli-glr.js';
export { BernoulliGlrStream } from '../stats/bernoulli-glr-stream.js';
export { clopperPearsonLower, clopperPearsonUpper } from '../stats/clopper-pearson.js';
export { countGapDecision } from '../stats/count-gap-comparison.js';
export { type FixedSampleDecision, fixedSampleDecision } from '../stats/fixed-sample-decision.js';
export { GapConfidenceSequenceTest } from '../stats/gap-confidence-sequence-test.js';
export { type GaussianSums, gaussianGlr } from '../stats/gaussian-glr.js';
export { GaussianGlrStream } from '../stats/gaussian-glr-stream.js';
export type { GlrStream } from '../stats/glr-stream.js';
export { GlrThresholdTest } from '../stats/glr-threshold-test.js';
export { ACCEPT, CONTINUE, REJECT, type SequentialTest } from '../stats/sequential-test.js';
export { type SequentialThresholds, sequentialThresholds } from '../stats/thresholds.js';
export { type TwoSampleBettingSettings, TwoSampleBettingTest } from '../stats/two-sample-betting-test.js';
export { createRandom, type Random } from '../util/random.js';

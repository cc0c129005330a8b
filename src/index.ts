/**
 * fairaudit's public API. Internals are not re-exported; each area adds its public
 * functions here.
 */
export { InputError } from './util/errors.js';
export { createRandom, deriveSeed, type Random } from './util/random.js';
export type { AccessRegime } from './audit/access-regime.js';
export type { FairnessMetric } from './audit/metric.js';
export type { AuditPool } from './audit/pool.js';
export { readPoolFile, writePoolFile, type ReadPoolOptions } from './audit/pool-io.js';
export { oracleDecision, prepareAudit, type PreparedAudit } from './audit/prepare-audit.js';
export {
  runSequentialAudit,
  type SequentialAuditResult,
  type SequentialAuditSettings,
  type SequentialDecision,
} from './audit/sequential-audit.js';
export { type BernoulliCounts, bernoulliGlr } from './stats/bernoulli-glr.js';
export { BernoulliGlrStream } from './stats/bernoulli-glr-stream.js';
export { type FixedSampleDecision, fixedSampleDecision } from './stats/fixed-sample-decision.js';
export { type GaussianSums, gaussianGlr } from './stats/gaussian-glr.js';
export { GaussianGlrStream } from './stats/gaussian-glr-stream.js';
export type { GlrStream } from './stats/glr-stream.js';
export { type SequentialThresholds, sequentialThresholds } from './stats/thresholds.js';

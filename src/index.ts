/**
 * fairaudit's public API, for an auditor with a pool of a model's outputs: audit it in
 * one call (auditPool, with paper A's GLR, the calibrated GLR or the betting test;
 * calibrateForAuditPool computes a calibration ahead on worker threads), read and write
 * pool files, and the GLR statistics underneath.
 * Families live under subpaths: fairaudit/stats, fairaudit/respir, fairaudit/pir and
 * fairaudit/harness (src/api/). Internals and the papers' presets are not exported.
 */
export { InputError } from './util/errors.js';
export type { AccessRegime } from './audit/access-regime.js';
export type { FairnessMetric } from './audit/metric.js';
export type { AuditPool } from './audit/pool.js';
export { readPoolFile, writePoolFile, type ReadPoolOptions } from './audit/pool-io.js';
export { type AuditSettings, auditSettingsSchema } from './audit/audit-settings.js';
export { TEST_NAMES, type TestName } from './audit/audit-test.js';
export type { CalibrationRecord, PricePoint } from './audit/calibration-record.js';
export {
  auditPool,
  calibrateForAuditPool,
  type AuditPoolSettings,
  auditPoolSettingsSchema,
  type AuditPoolSummary,
  type RepeatedAuditSummary,
  type SingleAuditSummary,
} from './audit/audit-pool.js';
export { type BernoulliCounts, bernoulliGlr } from './stats/bernoulli-glr.js';
export { type GaussianSums, gaussianGlr } from './stats/gaussian-glr.js';
export { type SequentialThresholds, sequentialThresholds } from './stats/thresholds.js';

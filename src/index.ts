/**
 * fairaudit's public API, for an auditor with a pool of a model's outputs: audit it in
 * one call (auditPool, with paper A's GLR, the calibrated GLR or the betting test;
 * calibrateForAuditPool computes a calibration ahead on worker threads) and read and
 * write pool files. Families live under subpaths: fairaudit/stats (the statistics),
 * fairaudit/respir, fairaudit/pir and fairaudit/harness (src/api/). Internals and the
 * papers' presets are not exported; the tests import them from their files.
 */

export type { AccessRegime } from './audit/access-regime.js';
export {
  type AuditPoolSettings,
  type AuditPoolSummary,
  auditPool,
  calibrateForAuditPool,
  type RepeatedAuditSummary,
  type SingleAuditSummary,
} from './audit/audit-pool.js';
export { TEST_NAMES, type TestName } from './audit/audit-test.js';
export type { FairnessMetric } from './audit/metric.js';
export type { AuditPool } from './audit/pool.js';
export { type ReadPoolOptions, readPoolFile, writePoolFile } from './audit/pool-io.js';
export { InputError } from './util/errors.js';

/**
 * fairaudit/pir: the oblivious audit over private information retrieval: SimplePIR
 * with a VeriSimplePIR-style commitment (client, server, parameters), the provider
 * service over loopback HTTP (bearer token, Host check, size caps) and the auditor's
 * connection to it, the audit's binding (candidate-list digest, auditor nonce, provider
 * share, jointly derived public seeds), what the hint reveals, and the auditor's online
 * phase (runObliviousAudit).
 */
export { AUDIT_DESIGNS, type AuditDesign } from '../audit/audit-design.js';
export { benchmarkPir, type PirBenchmarkRow } from '../pir/benchmark-pir.js';
export { CANDIDATE_DIGEST_BYTES, candidateListDigest } from '../pir/candidate-digest.js';
export { type CommitmentBinding, NONCE_BYTES, publicSeeds } from '../pir/commitment-binding.js';
export { databaseFromHint, hintRevealsDatabase, publicMatrixRankModTwo } from '../pir/hint-leakage.js';
export {
  auditSetDigest,
  checkBothGroups,
  drawAuditSet,
  type ObliviousAuditOptions,
  type ObliviousAuditResult,
  type ObliviousTest,
  runObliviousAudit,
} from '../pir/oblivious-audit.js';
export { choosePirParameters, noiseBound, type PirParameters } from '../pir/parameters.js';
export { PirClient } from '../pir/pir-client.js';
export { PirServer } from '../pir/pir-server.js';
export { PirVerificationError } from '../pir/pir-verification-error.js';
export { type AgreedCandidates, type ProviderEndpoint, ProviderConnection } from '../pir/provider-connection.js';
export { type ProviderFile, readProviderFile, writeProviderFile } from '../pir/provider-file.js';
export { startPoolProvider } from '../pir/provider-from-pool.js';
export {
  type CommitResponse,
  PIR_PROTOCOL,
  type ProviderService,
  type ProviderServiceOptions,
  type ProviderSetup,
  startProviderService,
} from '../pir/provider-service.js';

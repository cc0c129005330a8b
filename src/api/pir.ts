/**
 * fairaudit/pir: the oblivious audit: the default label transport, a k-out-of-N oblivious
 * transfer from an RFC 9497 verifiable OPRF (VoprfConnection, verifyVoprfTranscript), and SimplePIR
 * with a VeriSimplePIR-style commitment, the provider
 * service over loopback HTTP (bearer token, Host check, size caps) and the auditor's
 * connection to it, SimplePIR's parameters and its verification error, the candidate
 * list's digest, what the hint reveals, the audit set's draw and the auditor's online
 * phase (runObliviousAudit).
 */

export { drawAuditPlan, drawAuditSet } from '../pir/audit-plan.js';
export { candidateListDigest } from '../pir/candidate-digest.js';
export { hintRevealsDatabase } from '../pir/hint-leakage.js';
export {
  type ObliviousAuditOptions,
  type ObliviousAuditResult,
  type ObliviousProcedure,
  runObliviousAudit,
} from '../pir/oblivious-audit.js';
export { choosePirParameters, type PirParameters } from '../pir/parameters.js';
export { PirVerificationError } from '../pir/pir-verification-error.js';
export { type AgreedCandidates, ProviderConnection, type ProviderEndpoint } from '../pir/provider-connection.js';
export { type ProviderFile, readProviderFile, writeProviderFile } from '../pir/provider-file.js';
export { startPoolProvider } from '../pir/provider-from-pool.js';
export {
  type ProviderService,
  type ProviderServiceOptions,
  type ProviderSetup,
  startProviderService,
} from '../pir/provider-service.js';
export { VoprfConnection } from '../pir/voprf-connection.js';
export { verifyVoprfTranscript } from '../pir/voprf-transcript.js';

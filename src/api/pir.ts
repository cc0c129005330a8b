/**
 * fairaudit/pir: the oblivious audit over private information retrieval: SimplePIR
 * with a VeriSimplePIR-style commitment (client, server, parameters), the provider
 * service over loopback HTTP and the auditor's connection to it, and the auditor's
 * online phase (runObliviousAudit).
 */
export { AUDIT_DESIGNS, type AuditDesign } from '../audit/audit-design.js';
export { benchmarkPir, type PirBenchmarkRow } from '../pir/benchmark-pir.js';
export {
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
export { ProviderConnection } from '../pir/provider-connection.js';
export { startPoolProvider } from '../pir/provider-from-pool.js';
export { type ProviderService, type ProviderServiceOptions, type ProviderSetup, startProviderService } from '../pir/provider-service.js';

import type { AuditPool } from '../audit/pool.js';
import { createRandom } from '../util/random.js';
import { choosePirParameters } from './parameters.js';
import { PirServer } from './pir-server.js';
import { startProviderService, type ProviderService } from './provider-service.js';
import { type TamperMode, tamperMatrix } from './tamper.js';

export interface PoolProviderOptions {
  readonly port?: number;
  readonly idleTimeoutMs: number;
  readonly maxBatch?: number;
  /** Answer from a tampered table instead of the committed one (demonstrations, tests). */
  readonly tamper?: TamperMode;
}

export interface PoolProvider {
  readonly service: ProviderService;
  readonly server: PirServer;
  /** Wall time of the offline phase (pack, hint, commitment), milliseconds. */
  readonly commitMs: number;
  readonly hintBytes: number;
  readonly proofBytes: number;
}

/**
 * startPoolProvider(pool, options) is the provider's side of respir (paper B §4.1-4.2):
 * it labels the candidate set with its model — the pool's `decision` column —
 * packs the labels (one bit each), commits (hint H = D·A, proof Z = C·D) and serves
 * them over loopback HTTP (see startProviderService). O(ℓmn) for the hint.
 */
export async function startPoolProvider(pool: AuditPool, options: PoolProviderOptions): Promise<PoolProvider> {
  const started = performance.now();
  const parameters = choosePirParameters({ entryCount: pool.size, entryBits: 1 });
  const server = await PirServer.create(pool.decision, parameters);
  const { hint, proof } = server.commit();
  const commitMs = performance.now() - started;
  const answerFrom = options.tamper
    ? await PirServer.fromMatrix(
        tamperMatrix(server.matrix(), parameters, options.tamper, createRandom(`tamper:${pool.source}`)),
        parameters,
        server.seed,
      )
    : server;
  const service = await startProviderService({
    server,
    hint,
    proof,
    answerFrom,
    idleTimeoutMs: options.idleTimeoutMs,
    ...(options.port === undefined ? {} : { port: options.port }),
    ...(options.maxBatch === undefined ? {} : { maxBatch: options.maxBatch }),
  });
  return { service, server, commitMs, hintBytes: hint.byteLength, proofBytes: proof.byteLength };
}

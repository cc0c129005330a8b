import type { AuditPool } from '../audit/pool.js';
import { createRandom } from '../util/random.js';
import { candidateListDigest } from './candidate-digest.js';
import { CHALLENGE_ROWS, choosePirParameters } from './parameters.js';
import { PirServer } from './pir-server.js';
import { startProviderService, type ProviderService } from './provider-service.js';
import { type TamperMode, tamperMatrix } from './tamper.js';

export interface PoolProviderOptions {
  readonly port?: number;
  readonly idleTimeoutMs: number;
  readonly maxBatch?: number;
  /** Cheat (demonstrations, tests): answer from a tampered table, or replay the first audit's commitment. */
  readonly tamper?: TamperMode;
}

export interface PoolProvider {
  readonly service: ProviderService;
  readonly server: PirServer;
  /** Wall time of packing the labels into D, milliseconds (the commitment is made per audit). */
  readonly packMs: number;
  /** Bytes of the hint and of the proof that each audit's commitment sends. */
  readonly hintBytes: number;
  readonly proofBytes: number;
}

/**
 * startPoolProvider(pool, options) is the provider's side of respir (paper B §4.1-4.2):
 * it labels the candidate set with its model — the pool's `decision` column — packs
 * the labels (one bit each) and serves them over loopback HTTP (startProviderService),
 * committing for each audit to the candidate list in the pool's order
 * (candidateListDigest of its id and group columns) and the auditor's nonce. O(ℓm) here,
 * O(ℓmn) per audit for the hint. Rejects with the listen error (EADDRINUSE: busy port).
 */
export async function startPoolProvider(pool: AuditPool, options: PoolProviderOptions): Promise<PoolProvider> {
  const started = performance.now();
  const parameters = choosePirParameters({ entryCount: pool.size, entryBits: 1 });
  const server = await PirServer.create(pool.decision, parameters);
  const packMs = performance.now() - started;
  const tampered = options.tamper === 'replay' ? undefined : options.tamper;
  const answerFrom = tampered
    ? await PirServer.fromMatrix(
        tamperMatrix(server.matrix(), parameters, tampered, createRandom(`tamper:${pool.source}`)),
        parameters,
        server.seed,
      )
    : server;
  const service = await startProviderService({
    server,
    answerFrom,
    candidateDigest: candidateListDigest(pool.id, pool.group),
    replay: options.tamper === 'replay',
    idleTimeoutMs: options.idleTimeoutMs,
    ...(options.port === undefined ? {} : { port: options.port }),
    ...(options.maxBatch === undefined ? {} : { maxBatch: options.maxBatch }),
  });
  const { rows, columns, lweDimension } = parameters;
  return { service, server, packMs, hintBytes: rows * lweDimension * 4, proofBytes: CHALLENGE_ROWS * columns * 4 };
}

import type { AuditPool } from '../audit/pool.js';
import { createRandom } from '../util/random.js';
import { candidateListDigest } from './candidate-digest.js';
import { CHALLENGE_ROWS, choosePirParameters } from './parameters.js';
import { PirServer } from './pir-server.js';
import { type LabelTransportName, type ProviderService, startProviderService } from './provider-service.js';
import { type TamperMode, tamperMatrix } from './tamper.js';
import { createVoprfLabelTable } from './voprf-label-table.js';
import { VoprfLabelProvider } from './voprf-provider.js';

export interface PoolProviderOptions {
  readonly port?: number;
  readonly idleTimeoutMs: number;
  readonly maxBatch?: number;
  /** Cheat (demonstrations, tests): answer from a tampered table, or replay the first audit's commitment. */
  readonly tamper?: TamperMode;
  /** voprf (default): the OPRF label transfer; simplepir: SimplePIR + VeriSimplePIR (not symmetric). */
  readonly transport?: LabelTransportName;
  /** voprf: the most labels one audit may learn (default ⌈N/2⌉ + 1000, paper B's largest |S| = N/2 + k). */
  readonly maxEvaluationsPerAudit?: number;
  /** voprf: threads to build the table on (default 1; more needs the compiled dist/). */
  readonly threads?: number;
}

/** The provider's default cap on the labels one audit may learn: ⌈N/2⌉ + 1000. */
export function defaultMaxEvaluations(entryCount: number): number {
  return Math.min(entryCount, Math.ceil(entryCount / 2) + 1000);
}

export interface PoolProvider {
  readonly transport: LabelTransportName;
  readonly service: ProviderService;
  /** simplepir only: the PIR database. */
  readonly server?: PirServer;
  /** voprf only: the label table and the per-audit budgets. */
  readonly labelProvider?: VoprfLabelProvider;
  /** Wall time of packing the labels into D (simplepir) or building T (voprf), milliseconds. */
  readonly packMs: number;
  /** simplepir: bytes of the hint and of the proof each audit's commitment sends; voprf: |T| and 0. */
  readonly hintBytes: number;
  readonly proofBytes: number;
}

/** The OPRF label-transfer provider of a pool (startPoolProvider with transport voprf). */
async function startLabelProvider(pool: AuditPool, options: PoolProviderOptions): Promise<PoolProvider> {
  const started = performance.now();
  const candidateDigest = candidateListDigest(pool.id, pool.group);
  const table = await createVoprfLabelTable(pool.decision, {
    candidateDigest,
    ...(options.threads === undefined ? {} : { threads: options.threads }),
  });
  const packMs = performance.now() - started;
  const tamper = options.tamper;
  const labelProvider = new VoprfLabelProvider(
    table,
    options.maxEvaluationsPerAudit ?? defaultMaxEvaluations(pool.size),
    tamper,
  );
  const service = await startProviderService({
    labelProvider,
    candidateDigest,
    idleTimeoutMs: options.idleTimeoutMs,
    ...(options.port === undefined ? {} : { port: options.port }),
    ...(options.maxBatch === undefined ? {} : { maxBatch: options.maxBatch }),
  });
  return { transport: 'voprf', service, labelProvider, packMs, hintBytes: table.table.length, proofBytes: 0 };
}

/**
 * startPoolProvider(pool, options) is the provider's side of respir (paper B §4.1-4.2):
 * it labels the candidate set with its model — the pool's `decision` column — and serves
 * the labels over loopback HTTP (startProviderService), committing for each audit to the
 * candidate list in the pool's order (candidateListDigest of its id and group columns) and
 * the auditor's nonce. With transport voprf (the default) it draws a key pair and table id
 * and builds the OPRF-masked table T (O(N) group operations); with simplepir it packs the
 * labels into D (O(ℓm) here, O(ℓmn) per audit for the hint). Rejects with the listen error
 * (EADDRINUSE: busy port).
 * @param pool the provider's pool (its `decision` column is the model's labels)
 * @param options the transport, port and token, and what the provider may tamper with (tests)
 * @returns the running provider service and its timings
 * @example
 * const provider = await startPoolProvider(readPoolFile('outputs.csv'), { port: 0, idleTimeoutMs: 60_000 });
 */
export async function startPoolProvider(pool: AuditPool, options: PoolProviderOptions): Promise<PoolProvider> {
  if ((options.transport ?? 'voprf') === 'voprf') return startLabelProvider(pool, options);
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
  return {
    transport: 'simplepir',
    service,
    server,
    packMs,
    hintBytes: rows * lweDimension * 4,
    proofBytes: CHALLENGE_ROWS * columns * 4,
  };
}

import { randomBytes } from 'node:crypto';
import { benchmarkPir } from './benchmark-pir.js';
import { voprfCommitment } from './voprf-commitment.js';
import { createVoprfLabelTable } from './voprf-label-table.js';
import { ELEMENT_BYTES, labelInput, PROOF_BYTES, tableBytes, VOPRF } from './voprf-suite.js';
import { HEADER_BYTES } from './wire-format.js';

/** One transport at one size in `fairaudit bench oblivious`: times in ms, sizes in bytes. */
export interface ObliviousTransportRow {
  readonly transport: 'voprf' | 'simplepir';
  readonly entries: number;
  /** |S| + k, the labels the audit retrieves. */
  readonly retrievals: number;
  /** The labels the auditor could read: |S| + k (voprf), N (simplepir: the hint determines D). */
  readonly labelsRevealed: number;
  /**
   * Provider, once per model version (voprf: T, its CPU time over all threads divided by `threads`: the wall
   * time on that many free cores) or per audit (simplepir: hint, proof, the secret challenge's H₂ and its
   * evaluation, wall).
   */
  readonly providerSetupMs: number;
  /** Whether providerSetupMs was extrapolated linearly from a table of `tableSampleEntries`. */
  readonly setupExtrapolated: boolean;
  /** Provider CPU for the online phase: evaluations and proofs (voprf), answers (simplepir, wall medians). */
  readonly providerOnlineMs: number;
  /**
   * Auditor CPU (all threads): the commitment over T recomputed, then blind, verify and finalise (voprf); the
   * client's set-up, the commitment check and the secret challenge (pir audit's default) plus |S| + k times the
   * mean CPU of a query and its verifying recovery over min(|S| + k, 1000) retrievals (simplepir).
   */
  readonly auditorMs: number;
  /** Everything moved between the two, both directions. */
  readonly bytesMoved: number;
  readonly threads: number;
}

export interface ObliviousBenchmarkOptions {
  readonly entries: number;
  readonly retrievals: number;
  /** Threads for the VOPRF table (default 2). */
  readonly threads?: number;
  /** Build at most this many table entries and extrapolate linearly beyond (default: all N). */
  readonly tableSampleEntries?: number;
  /** Elements per evaluation batch (default 256: one DLEQ proof each). */
  readonly batchSize?: number;
  /** SimplePIR online repetitions (medians; the auditor's CPU is their mean), default 25. */
  readonly repetitions?: number;
  /**
   * Called after each batch of the VOPRF online phase (synchronous, tens of seconds for the largest sets) with the
   * labels transferred so far and |S| + k, so a caller can draw progress.
   */
  readonly onProgress?: (done: number, total: number) => void;
}

/** CPU milliseconds of this process (every thread) since `since`. */
function cpuMs(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

/** The online phase of the label transfer in one thread: blind, evaluate with proofs, verify and finalise. */
function voprfOnline(
  entries: number,
  retrievals: number,
  batchSize: number,
  table: Awaited<ReturnType<typeof createVoprfLabelTable>>,
  onProgress?: (done: number, total: number) => void,
) {
  // The auditor's offline check: the commitment to the table it downloaded, under its nonce.
  let at = process.cpuUsage();
  voprfCommitment({
    candidateDigest: table.candidateDigest,
    publicKey: table.publicKey,
    tableId: table.tableId,
    entryCount: entries,
    entryBits: 1,
    // A table built on a sample stands in for the whole: the check hashes all of T's bytes.
    table: table.entryCount < entries ? new Uint8Array(tableBytes(entries, 1)) : table.table,
    auditorNonce: new Uint8Array(randomBytes(32)),
    evaluationBudget: retrievals,
  });
  let auditorMs = cpuMs(at);
  let providerMs = 0;
  for (let start = 0; start < retrievals; start += batchSize) {
    const count = Math.min(batchSize, retrievals - start);
    const inputs = Array.from({ length: count }, (_, k) =>
      labelInput(table.candidateDigest, table.tableId, (start + k) % table.entryCount),
    );
    at = process.cpuUsage();
    const blinds = inputs.map((input) => VOPRF.blind(input));
    auditorMs += cpuMs(at);
    at = process.cpuUsage();
    const answer = VOPRF.blindEvaluateBatch(
      table.secretKey,
      table.publicKey,
      blinds.map((blind) => blind.blinded),
    );
    providerMs += cpuMs(at);
    at = process.cpuUsage();
    const items = inputs.map((input, k) => ({
      input,
      blind: blinds[k].blind,
      blinded: blinds[k].blinded,
      evaluated: answer.evaluated[k],
    }));
    VOPRF.finalizeBatch(items, table.publicKey, answer.proof);
    auditorMs += cpuMs(at);
    onProgress?.(start + count, retrievals);
  }
  const batches = Math.ceil(retrievals / batchSize);
  const bytesMoved = tableBytes(entries, 1) + 2 * retrievals * ELEMENT_BYTES + batches * PROOF_BYTES;
  return { auditorMs, providerMs, bytesMoved };
}

/**
 * benchmarkObliviousTransports(options) measures one audit of |S| + k label retrievals from
 * N candidates through both transports in this process: the VOPRF label transfer (T built on
 * `threads` worker threads, possibly on a sample and extrapolated, then the online phase) and
 * SimplePIR + VeriSimplePIR (benchmarkPir's medians times the retrievals, plus the hint and
 * proof). Bytes are counted from the wire formats; the small JSON of /setup and /commit is left
 * out of both. Wall-clock figures: provisional on a shared machine.
 * @param options N, |S| + k, threads, the table sample, the batch size, a progress callback
 * @returns one row per transport
 * @example await benchmarkObliviousTransports({ entries: 13_500, retrievals: 6_760 })
 */
export async function benchmarkObliviousTransports(
  options: ObliviousBenchmarkOptions,
): Promise<ObliviousTransportRow[]> {
  const { entries, retrievals } = options;
  const threads = options.threads ?? 2;
  const batchSize = options.batchSize ?? 256;
  const built = Math.min(entries, options.tableSampleEntries ?? entries);
  const labels = new Uint8Array(randomBytes(built)).map((byte) => byte & 1);
  const started = process.cpuUsage();
  const table = await createVoprfLabelTable(labels, { candidateDigest: new Uint8Array(32), threads });
  const tableCpuMs = (cpuMs(started) * entries) / built;
  const online = voprfOnline(entries, retrievals, batchSize, table, options.onProgress);
  const pir = await benchmarkPir({
    entries,
    entryBits: 1,
    repetitions: options.repetitions ?? 25,
    secretChallenge: true,
    // The mean over up to 1,000 retrievals, so that one pause in it is not multiplied by all |S| + k.
    auditorQueries: Math.min(retrievals, 1000),
  });
  const queryBatches = Math.ceil(retrievals / batchSize);
  return [
    {
      transport: 'voprf',
      entries,
      retrievals,
      labelsRevealed: retrievals,
      providerSetupMs: tableCpuMs / threads,
      setupExtrapolated: built < entries,
      providerOnlineMs: online.providerMs,
      auditorMs: online.auditorMs,
      bytesMoved: online.bytesMoved,
      threads,
    },
    {
      transport: 'simplepir',
      entries,
      retrievals,
      labelsRevealed: entries,
      providerSetupMs: pir.hintMs + pir.commitMs + (pir.secretChallengeProviderMs ?? 0),
      setupExtrapolated: false,
      providerOnlineMs: retrievals * pir.answerMs,
      auditorMs:
        (pir.clientCreateCpuMs ?? 0) +
        pir.commitCheckCpuMs +
        (pir.secretChallengeCpuMs ?? 0) +
        retrievals * pir.auditorCpuMsPerQuery,
      bytesMoved:
        pir.hintBytes +
        pir.proofBytes +
        (pir.secretChallengeBytes ?? 0) +
        retrievals * (pir.queryBytes + pir.answerBytes - 2 * HEADER_BYTES) +
        2 * queryBatches * HEADER_BYTES,
      threads: 1,
    },
  ];
}

import { randomBytes } from 'node:crypto';
import { inputError, isInputError } from '../util/errors.js';
import { NONCE_BYTES } from './commitment-binding.js';
import type { LabelTransport, TrafficCounters } from './label-transport.js';
import { PirVerificationError } from './pir-verification-error.js';
import {
  type AgreedCandidates,
  checkAgreement,
  loopbackBase,
  type ProviderEndpoint,
  parseSetup,
  requestBytes,
} from './provider-connection.js';
import { MAX_JSON_BYTES, type ProviderSetup } from './provider-service.js';
import { voprfCommitment } from './voprf-commitment.js';
import {
  ELEMENT_BYTES,
  labelInput,
  labelPad,
  PROOF_BYTES,
  readEntry,
  tableBytes,
  VOPRF,
  VOPRF_SUITE,
} from './voprf-suite.js';
import {
  BLIND_SEED_BYTES,
  blindFromSeed,
  TRANSCRIPT_FORMAT,
  type TranscriptBatch,
  type VoprfTranscript,
} from './voprf-transcript.js';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/** Fetches /setup, or InputError naming --provider when nothing answers there. */
async function fetchSetup(base: string, token: string, url: string): Promise<Uint8Array> {
  try {
    return await requestBytes(base, token, '/setup', MAX_JSON_BYTES, 'setup');
  } catch (error) {
    if (error instanceof PirVerificationError || isInputError(error)) throw error;
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw inputError({
      where: '--provider',
      expected: 'the URL of a running "fairaudit pir serve"',
      found: `${url} (${cause?.code ?? cause?.message ?? (error as Error).message})`,
    });
  }
}

/** The label-transfer fields of /setup: pk, table id, the per-audit cap and |T|, or PirVerificationError. */
function labelSetup(setup: ProviderSetup): { publicKey: Uint8Array; tableId: Uint8Array; maxEvaluations: number } {
  const { publicKey, tableId, maxEvaluationsPerAudit, tableBytes: size } = setup;
  if (
    typeof publicKey !== 'string' ||
    !/^[0-9a-f]{64}$/.test(publicKey) ||
    typeof tableId !== 'string' ||
    !/^[0-9a-f]{32}$/.test(tableId) ||
    !Number.isInteger(maxEvaluationsPerAudit) ||
    size !== tableBytes(setup.entryCount, setup.entryBits)
  ) {
    throw new PirVerificationError(`setup: expected pk, table id, budget cap and |T| of a ${VOPRF_SUITE} label table`);
  }
  return {
    publicKey: new Uint8Array(Buffer.from(publicKey, 'hex')),
    tableId: new Uint8Array(Buffer.from(tableId, 'hex')),
    maxEvaluations: maxEvaluationsPerAudit as number,
  };
}

/**
 * The auditor's side of the k-out-of-N oblivious transfer from an RFC 9497 verifiable OPRF
 * (ristretto255-SHA512): T downloaded and checked against this audit's commitment, then
 * labels retrieved by blinded evaluation, every batch's DLEQ proof verified against pk.
 * Make it with `VoprfConnection.connect`. It records the transcript (with the blinds, which
 * the auditor may disclose after the audit for `pir verify`).
 * @param url the provider's URL (loopback)
 * @param token the bearer token
 * @param setup the provider's setup as checked
 * @param publicKey the provider's OPRF public key pk
 * @param tableId the table id the evaluations are bound to
 * @param candidateDigest the digest of the agreed candidate list
 * @param table the OPRF-masked label table T
 * @param auditorNonce this audit's nonce
 * @param evaluationBudget the evaluations agreed for this audit, |S| + k
 * @param commitment the provider's commitment, checked against T
 * @param traffic the byte and time counters of this audit
 * @example
 * const connection = await VoprfConnection.connect(readProviderFile('provider.json'), candidates, 1010);
 */
export class VoprfConnection implements LabelTransport {
  readonly transport = 'voprf' as const;
  private readonly retrieved = new Set<number>();
  private readonly batches: TranscriptBatch[] = [];
  private evaluationsUsed = 0;

  private constructor(
    readonly url: string,
    private readonly token: string,
    readonly setup: ProviderSetup,
    private readonly publicKey: Uint8Array,
    private readonly tableId: Uint8Array,
    private readonly candidateDigest: Uint8Array,
    private readonly table: Uint8Array,
    readonly auditorNonce: Uint8Array,
    readonly evaluationBudget: number,
    readonly commitment: string,
    readonly traffic: TrafficCounters,
  ) {}

  get entryCount(): number {
    return this.setup.entryCount;
  }

  get maxBatch(): number {
    return this.setup.maxBatch;
  }

  /**
   * VoprfConnection.connect(endpoint, candidates, evaluationBudget) opens one audit: GET
   * /setup (transport voprf, N, bits, digest equal to the auditor's, pk, table id), a fresh
   * 32-byte nonce from node:crypto, POST /voprf/commit {nonce, evaluations} for the
   * commitment, GET /voprf/table (exactly |T| bytes), and the commitment recomputed by the
   * auditor over what it received. Throws InputError for a provider of another transport, a
   * budget above the provider's cap, a bad URL or token; PirVerificationError for a provider
   * whose setup, candidate list, table or commitment does not hold up.
   */
  static async connect(
    endpoint: ProviderEndpoint,
    candidates: AgreedCandidates,
    evaluationBudget: number,
  ): Promise<VoprfConnection> {
    const base = loopbackBase(endpoint.url);
    const started = performance.now();
    const traffic: TrafficCounters = {
      offlineBytesReceived: 0,
      offlineBytesSent: 0,
      bytesSent: 0,
      bytesReceived: 0,
      offlineMs: 0,
    };
    const setupBytes = await fetchSetup(base, endpoint.token, endpoint.url);
    traffic.offlineBytesReceived += setupBytes.length;
    const setup = parseSetup(setupBytes);
    if (setup.transport !== 'voprf') {
      throw inputError({
        where: '--transport',
        expected: `the provider's transport (${setup.transport})`,
        found: 'voprf',
      });
    }
    checkAgreement(setup, candidates);
    const { publicKey, tableId, maxEvaluations } = labelSetup(setup);
    if (evaluationBudget > maxEvaluations) {
      throw inputError({
        where: '--audit-set-size/--canaries',
        expected: `|S| + k at most ${maxEvaluations} (the provider's cap on labels per audit)`,
        found: evaluationBudget,
      });
    }
    const nonce = new Uint8Array(randomBytes(NONCE_BYTES));
    const body = Buffer.from(JSON.stringify({ nonce: hex(nonce), evaluations: evaluationBudget }));
    const commitBytes = await requestBytes(base, endpoint.token, '/voprf/commit', MAX_JSON_BYTES, 'commit', body);
    const size = tableBytes(setup.entryCount, setup.entryBits);
    const table = await requestBytes(base, endpoint.token, '/voprf/table', size, 'label table');
    traffic.offlineBytesSent += body.length;
    traffic.offlineBytesReceived += commitBytes.length + table.length;
    if (table.length !== size)
      throw new PirVerificationError(`label table: expected ${size} bytes, found ${table.length}`);
    let commitment: unknown;
    try {
      commitment = (JSON.parse(Buffer.from(commitBytes).toString('utf8')) as { commitment?: unknown }).commitment;
    } catch {
      commitment = undefined;
    }
    const expected = voprfCommitment({
      candidateDigest: candidates.digest,
      publicKey,
      tableId,
      entryCount: setup.entryCount,
      entryBits: setup.entryBits,
      table,
      auditorNonce: nonce,
      evaluationBudget,
    });
    if (commitment !== expected) {
      throw new PirVerificationError(
        `commitment: the provider's ${String(commitment).slice(0, 64)} is not the commitment to the table it ` +
          `served under this audit's nonce (${expected})`,
      );
    }
    traffic.offlineMs = performance.now() - started;
    return new VoprfConnection(
      base,
      endpoint.token,
      setup,
      publicKey,
      tableId,
      candidates.digest,
      table,
      nonce,
      evaluationBudget,
      expected,
      traffic,
    );
  }

  /**
   * retrieve(indices) retrieves the labels of one batch: each x_i blinded with a blind drawn
   * from node:crypto, one POST /voprf/evaluate, the evaluated elements and the batch's DLEQ
   * proof verified against pk and finalised, each label T_i ⊕ pad(y_i). O(batch) group
   * operations. Throws Error beyond the audit's budget (the caller's bug) and
   * PirVerificationError for a refused, malformed or unverifiable answer.
   */
  async retrieve(indices: readonly number[]): Promise<number[]> {
    if (this.evaluationsUsed + indices.length > this.evaluationBudget) {
      throw new Error(`VoprfConnection.retrieve: the audit's budget is ${this.evaluationBudget} labels`);
    }
    this.evaluationsUsed += indices.length;
    const seeds = indices.map(() => new Uint8Array(randomBytes(BLIND_SEED_BYTES)));
    const inputs = indices.map((index) => labelInput(this.candidateDigest, this.tableId, index));
    const blinds = inputs.map((input, k) => blindFromSeed(input, seeds[k]));
    const body = new Uint8Array(indices.length * ELEMENT_BYTES);
    for (const [k, blind] of blinds.entries()) body.set(blind.blinded, k * ELEMENT_BYTES);
    const path = `/voprf/evaluate?audit=${hex(this.auditorNonce)}`;
    const limit = body.length + PROOF_BYTES;
    this.traffic.bytesSent += body.length;
    const answer = await requestBytes(this.url, this.token, path, limit, 'evaluation', body);
    this.traffic.bytesReceived += answer.length;
    if (answer.length !== limit) {
      throw new PirVerificationError(`evaluation: expected ${limit} bytes, found ${answer.length}`);
    }
    const evaluated = indices.map((_, k) => answer.slice(k * ELEMENT_BYTES, (k + 1) * ELEMENT_BYTES));
    const proof = answer.slice(body.length);
    let outputs: Uint8Array[];
    try {
      const items = inputs.map((input, k) => ({
        input,
        blind: blinds[k].blind,
        blinded: blinds[k].blinded,
        evaluated: evaluated[k],
      }));
      outputs = VOPRF.finalizeBatch(items, this.publicKey, proof);
    } catch (error) {
      throw new PirVerificationError(
        `evaluation: the batch's DLEQ proof does not verify against pk (${(error as Error).message})`,
      );
    }
    const labels = indices.map(
      (index, k) => readEntry(this.table, index, this.setup.entryBits) ^ labelPad(outputs[k], this.setup.entryBits),
    );
    for (const index of indices) this.retrieved.add(index);
    this.batches.push({
      indices: [...indices],
      blindSeeds: seeds.map(hex),
      blinded: blinds.map((blind) => hex(blind.blinded)),
      evaluated: evaluated.map(hex),
      proof: hex(proof),
      labels,
    });
    return labels;
  }

  /** labelsRevealed() is the number of distinct candidates whose evaluation the auditor received: |S| + k. O(1). */
  labelsRevealed(): number {
    return this.retrieved.size;
  }

  /** The audit so far as a transcript, blinds included (disclose it only after the audit). O(|T| + evaluations). */
  transcript(): VoprfTranscript {
    return {
      format: TRANSCRIPT_FORMAT,
      suite: VOPRF_SUITE,
      candidateDigest: hex(this.candidateDigest),
      publicKey: hex(this.publicKey),
      tableId: hex(this.tableId),
      entryCount: this.setup.entryCount,
      entryBits: this.setup.entryBits,
      table: Buffer.from(this.table).toString('base64'),
      auditorNonce: hex(this.auditorNonce),
      evaluationBudget: this.evaluationBudget,
      commitment: this.commitment,
      batches: this.batches,
    };
  }

  /** close() is a no-op: the provider keeps the audit's budget so a finished audit cannot be reopened. */
  async close(): Promise<void> {}

  /** shutdown() asks the provider to stop (POST /shutdown). */
  async shutdown(): Promise<void> {
    await requestBytes(this.url, this.token, '/shutdown', 64, 'shutdown', new Uint8Array(0));
  }
}

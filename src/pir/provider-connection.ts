import { randomBytes } from 'node:crypto';
import { inputError, isInputError } from '../util/errors.js';
import type { CommitmentBinding } from './commitment-binding.js';
import { NONCE_BYTES, publicSeeds } from './commitment-binding.js';
import { hintRevealsDatabase } from './hint-leakage.js';
import type { LabelTransport, TrafficCounters } from './label-transport.js';
import { entriesInColumn } from './packing.js';
import { CHALLENGE_ROWS, choosePirParameters, LWE_DIMENSION, type PirParameters } from './parameters.js';
import { PirClient, type QueryState } from './pir-client.js';
import { PirVerificationError } from './pir-verification-error.js';
import {
  type CommitResponse,
  LABEL_TRANSPORTS,
  LOOPBACK_HOST,
  MAX_JSON_BYTES,
  PIR_PROTOCOL,
  type ProviderSetup,
} from './provider-service.js';
import { secretChallengeShape } from './secret-challenge.js';
import { decodeMessage, encodeMessage, HEADER_BYTES } from './wire-format.js';

/** Where the provider listens and the bearer token it requires (`pir serve` writes both to its --url-file). */
export interface ProviderEndpoint {
  readonly url: string;
  readonly token: string;
}

/** The candidate list the auditor holds: its size, the bits of a label, and candidateListDigest in the agreed order. */
export interface AgreedCandidates {
  readonly entryCount: number;
  readonly entryBits: number;
  readonly digest: Uint8Array;
}

/** How long the auditor waits for one response of the provider (the adversary may stall). */
export const RESPONSE_TIMEOUT_MS = 300_000;

/**
 * The auditor's verified connection to a provider: the parameters (derived by the
 * auditor from the database size, not taken from the provider), a PirClient whose
 * commitment check passed for this audit's nonce and candidate list, byte counters, and
 * the columns of D the provider's answers revealed. Make it with `ProviderConnection.connect`.
 * @param url the provider's loopback address
 * @param token the bearer token
 * @param setup what the provider published
 * @param client the PIR client
 * @param binding the audit's binding
 * @param traffic the bytes sent and received so far
 * @example
 * const connection = await ProviderConnection.connect(readProviderFile('provider.json', '--provider'), candidates);
 */
export class ProviderConnection implements LabelTransport {
  readonly transport = 'simplepir' as const;
  readonly traffic: TrafficCounters;
  /** Columns of D whose answers this connection decrypted (each reveals every entry in it). */
  readonly answeredColumns = new Set<number>();

  private constructor(
    readonly url: string,
    private readonly token: string,
    readonly setup: ProviderSetup,
    readonly client: PirClient,
    /** This audit's binding: the auditor's candidate digest and nonce, the provider's share. */
    readonly binding: CommitmentBinding,
    traffic: TrafficCounters,
  ) {
    this.traffic = traffic;
  }

  get parameters(): PirParameters {
    return this.client.parameters;
  }

  get entryCount(): number {
    return this.setup.entryCount;
  }

  get maxBatch(): number {
    return this.setup.maxBatch;
  }

  /**
   * ProviderConnection.connect(endpoint, candidates, options?) opens one audit with a
   * loopback provider: GET /setup (the protocol, N, d and the provider's candidate digest
   * must match the auditor's list), POST /commit with a 32-byte nonce drawn from
   * node:crypto, then GET /hint and /proof, the seeds of A and A_2 derived from
   * (provider share, nonce, candidate digest) by the auditor itself (publicSeeds), and
   * the commitment checks of Figure 3 over that binding (a transcript of another audit
   * fails them); then, unless `secretChallenge` is false, VeriSimplePIR's secret-challenge
   * preprocessing (GET /challenge-hints, POST /challenge), after which every answer is
   * checked with a C the provider does not know. Every request carries the bearer token;
   * every response is read up to the size its kind needs and no further, within
   * RESPONSE_TIMEOUT_MS. Throws InputError for a non-loopback URL, one where no provider
   * answers, or a token the provider refuses, and PirVerificationError for a provider
   * whose setup, candidate list, digest or challenge does not hold up.
   */
  static async connect(
    endpoint: ProviderEndpoint,
    candidates: AgreedCandidates,
    options: { secretChallenge?: boolean } = {},
  ): Promise<ProviderConnection> {
    const base = loopbackBase(endpoint.url);
    const started = performance.now();
    const traffic: TrafficCounters = {
      offlineBytesReceived: 0,
      offlineBytesSent: 0,
      bytesSent: 0,
      bytesReceived: 0,
      offlineMs: 0,
    };
    const request = (path: string, limit: number, what: string, body?: Uint8Array) =>
      requestBytes(base, endpoint.token, path, limit, what, body).then((bytes) => {
        traffic.offlineBytesReceived += bytes.length;
        traffic.offlineBytesSent += body?.length ?? 0;
        return bytes;
      });
    let setupBytes: Uint8Array;
    try {
      setupBytes = await request('/setup', MAX_JSON_BYTES, 'setup');
    } catch (error) {
      if (error instanceof PirVerificationError || isInputError(error)) throw error;
      // fetch rejects with a TypeError whose cause says why (ECONNREFUSED: nothing listens).
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw inputError({
        where: '--provider',
        expected: 'the URL of a running "fairaudit pir serve"',
        found: `${endpoint.url} (${cause?.code ?? cause?.message ?? (error as Error).message})`,
      });
    }
    const setup = parseSetup(setupBytes);
    if (setup.transport !== 'simplepir') {
      throw inputError({
        where: '--transport',
        expected: `the provider's transport (${setup.transport})`,
        found: 'simplepir',
      });
    }
    checkAgreement(setup, candidates);
    const parameters = choosePirParameters({ entryCount: setup.entryCount, entryBits: setup.entryBits });
    const nonce = new Uint8Array(randomBytes(NONCE_BYTES));
    const commitBody = Buffer.from(JSON.stringify({ nonce: Buffer.from(nonce).toString('hex') }));
    const share = parseCommit(await request('/commit', MAX_JSON_BYTES, 'commit', commitBody));
    const audit = `?audit=${Buffer.from(nonce).toString('hex')}`;
    const binding: CommitmentBinding = {
      candidateDigest: candidates.digest,
      auditorNonce: nonce,
      providerShare: share,
    };
    const seeds = publicSeeds(binding);
    const hintBytes = await request(
      `/hint${audit}`,
      HEADER_BYTES + parameters.rows * parameters.lweDimension * 4,
      'hint',
    );
    const proofBytes = await request(`/proof${audit}`, HEADER_BYTES + CHALLENGE_ROWS * parameters.columns * 4, 'proof');
    const hint = asVerification(() =>
      decodeMessage(hintBytes, 'hint', parameters.lweDimension, parameters.rows, 'PIR hint'),
    );
    if (hint.count !== parameters.rows) {
      throw new PirVerificationError(`PIR hint: expected ${parameters.rows} rows, found ${hint.count}`);
    }
    const proof = asVerification(() =>
      decodeMessage(proofBytes, 'proof', parameters.columns, CHALLENGE_ROWS, 'PIR commitment proof'),
    );
    const client = await PirClient.create(parameters, seeds.matrix, hint.words);
    client.verifyCommitment(new Int32Array(proof.words.buffer, proof.words.byteOffset, proof.words.length), binding);
    if (options.secretChallenge ?? true) await secretChallenge(request, client, seeds.challengeMatrix, audit);
    traffic.offlineMs = performance.now() - started;
    return new ProviderConnection(base, endpoint.token, setup, client, binding, traffic);
  }

  /**
   * retrieve(entryIndices) fetches the entries through PIR in one batch: one query
   * per index, one POST, every answer decrypted and verified (noise bound and
   * Z·u = C·v). Returns the entries in order and records the columns answered.
   * O(batch·(mn + ℓn)) on the client. Throws PirVerificationError for a malformed,
   * oversized or unverifiable answer.
   */
  async retrieve(entryIndices: readonly number[]): Promise<number[]> {
    const { columns, rows } = this.parameters;
    const states: QueryState[] = entryIndices.map((index) => this.client.query(index));
    const words = new Uint32Array(states.length * columns);
    states.forEach((state, q) => {
      words.set(state.query, q * columns);
    });
    const body = encodeMessage('query', words, states.length, columns);
    this.traffic.bytesSent += body.length;
    const bytes = await requestBytes(
      this.url,
      this.token,
      '/answer',
      HEADER_BYTES + states.length * rows * 4,
      'answer',
      body,
    );
    this.traffic.bytesReceived += bytes.length;
    const answers = asVerification(() => decodeMessage(bytes, 'answer', rows, states.length, 'PIR answer'));
    if (answers.count !== states.length) {
      throw new PirVerificationError(`PIR answer: expected ${states.length} answers, found ${answers.count}`);
    }
    return states.map((state, q) => {
      const entry = this.client.recover(answers.words.subarray(q * rows, (q + 1) * rows), state, entryIndices[q]);
      this.answeredColumns.add(state.column);
      return entry;
    });
  }

  /**
   * labelsRevealed() is N: SimplePIR is not symmetric. The hint H = D·A is ℓ·n words for ℓ·m
   * small entries with m ≤ n, so it determines D information-theoretically at every size (an
   * elimination mod 2^32 recovers it whenever A mod 2 has full rank, databaseFromHint), and the
   * secret challenge's hints H₂ determine it by a second route. Counted before any answer. O(1).
   */
  labelsRevealed(): number {
    return this.setup.entryCount;
  }

  /**
   * labelsRevealedByAnswers(columns?) counts the entries the answers alone decrypt: every
   * entry of every answered column (SimplePIR decrypts a whole column per answer), over this
   * connection's answers or the given columns. O(columns).
   */
  labelsRevealedByAnswers(columns: Iterable<number> = this.answeredColumns): number {
    let total = 0;
    for (const column of columns) total += entriesInColumn(column, this.parameters);
    return total;
  }

  /**
   * hintRevealsAllLabels() says whether this audit's hint H = D·A alone determines every
   * entry of D (A mod 2 of full row rank m ≤ n: hintRevealsDatabase), before any query.
   * O(m²n/32).
   */
  hintRevealsAllLabels(): boolean {
    return hintRevealsDatabase(this.parameters, this.client.seed);
  }

  /** close() tells the provider this audit is over, so it can forget its commitment (POST /close). */
  async close(): Promise<void> {
    const audit = Buffer.from(this.binding.auditorNonce).toString('hex');
    await requestBytes(this.url, this.token, `/close?audit=${audit}`, 64, 'close', new Uint8Array(0));
  }

  /** shutdown() asks the provider to stop (POST /shutdown). */
  async shutdown(): Promise<void> {
    await ProviderConnection.requestShutdown({ url: this.url, token: this.token });
  }

  /**
   * requestShutdown(endpoint) asks a loopback provider to stop even when no verified
   * connection exists (e.g. after a rejected digest). Throws InputError for a URL
   * that is not http://127.0.0.1:PORT.
   */
  static async requestShutdown(endpoint: ProviderEndpoint): Promise<void> {
    await requestBytes(loopbackBase(endpoint.url), endpoint.token, '/shutdown', 64, 'shutdown', new Uint8Array(0));
  }
}

/** http://127.0.0.1:PORT from a URL, or InputError naming --provider. */
export function loopbackBase(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw inputError({ where: '--provider', expected: 'an http://127.0.0.1:PORT URL', found: url });
  }
  if (parsed.protocol !== 'http:' || parsed.hostname !== LOOPBACK_HOST || parsed.port === '') {
    throw inputError({ where: '--provider', expected: 'an http://127.0.0.1:PORT URL (loopback only)', found: url });
  }
  return `http://${parsed.host}`;
}

/**
 * requestBytes(base, token, path, limit, what, body?) sends GET (or POST with body) with
 * the bearer token and reads the response up to `limit` bytes: a declared or actual
 * length beyond it is refused without reading further (the provider is the adversary),
 * as is a response slower than RESPONSE_TIMEOUT_MS. HTTP 401/403 is InputError (the
 * token or URL is wrong: the user's to fix); any other non-2xx status and an oversized
 * body are PirVerificationError.
 */
export async function requestBytes(
  base: string,
  token: string,
  path: string,
  limit: number,
  what: string,
  body?: Uint8Array,
): Promise<Uint8Array> {
  let response: Response;
  try {
    response = await fetch(`${base}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(RESPONSE_TIMEOUT_MS),
      ...(body === undefined ? {} : { body }),
    });
  } catch (error) {
    // Before /setup the caller reports an unreachable URL as bad input; later a lost
    // connection is the provider's failure to answer.
    if (what === 'setup') throw error;
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new PirVerificationError(
      `provider ${what}: no answer (${cause?.code ?? cause?.message ?? (error as Error).message})`,
    );
  }
  const bytes = await readCappedBody(response, limit, what);
  if (response.status === 401 || response.status === 403) {
    throw inputError({
      where: `${base}${path}`,
      expected:
        "the URL and bearer token that 'pir serve' wrote to its --url-file (pir audit --provider-file FILE, or " +
        '--provider URL with FAIRAUDIT_PIR_TOKEN)',
      found: `HTTP ${response.status}: ${Buffer.from(bytes).toString('utf8').slice(0, 200)}`,
    });
  }
  if (!response.ok) {
    throw new PirVerificationError(
      `provider refused ${what} (HTTP ${response.status}): ${Buffer.from(bytes).toString('utf8').slice(0, 200)}`,
    );
  }
  return bytes;
}

/** Reads a response body of at most `limit` bytes, or throws PirVerificationError (and cancels the rest). */
async function readCappedBody(response: Response, limit: number, what: string): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    await response.body?.cancel();
    throw new PirVerificationError(
      `provider ${what}: expected at most ${limit} bytes, the provider announced ${declared}`,
    );
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (response.body) {
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > limit) {
        await reader.cancel();
        throw new PirVerificationError(`provider ${what}: expected at most ${limit} bytes, received more`);
      }
      chunks.push(value);
    }
  }
  return new Uint8Array(Buffer.concat(chunks));
}

async function secretChallenge(
  request: (path: string, limit: number, what: string, body?: Uint8Array) => Promise<Uint8Array>,
  client: PirClient,
  challengeSeed: Uint8Array,
  audit: string,
): Promise<void> {
  const { parameters } = client;
  const shape = secretChallengeShape(parameters);
  const hintBytes = await request(
    `/challenge-hints${audit}`,
    HEADER_BYTES + shape.planes * parameters.columns * LWE_DIMENSION * 4,
    'challenge hints',
  );
  const hints = asVerification(() =>
    decodeMessage(
      hintBytes,
      'challenge-hint',
      parameters.lweDimension,
      shape.planes * parameters.columns,
      'PIR challenge hints',
    ),
  );
  const { encrypted, state } = client.beginSecretChallenge(challengeSeed);
  const body = encodeMessage('challenge', encrypted, parameters.rows, CHALLENGE_ROWS);
  const bytes = await request(
    `/challenge${audit}`,
    HEADER_BYTES + shape.planes * parameters.columns * CHALLENGE_ROWS * 4,
    'secret challenge',
    body,
  );
  const answers = asVerification(() =>
    decodeMessage(bytes, 'challenge-answer', CHALLENGE_ROWS, shape.planes * parameters.columns, 'PIR challenge answer'),
  );
  client.finishSecretChallenge(state, hints.words, answers.words);
}

function asVerification<T>(decode: () => T): T {
  try {
    return decode();
  } catch (error) {
    if (isInputError(error)) throw new PirVerificationError(error.message);
    throw error;
  }
}

/** Parses and checks GET /setup's JSON (protocol, sizes, digest, batch), or PirVerificationError. */
export function parseSetup(bytes: Uint8Array): ProviderSetup {
  let setup: ProviderSetup;
  try {
    setup = JSON.parse(Buffer.from(bytes).toString('utf8')) as ProviderSetup;
  } catch {
    throw new PirVerificationError('setup: the provider did not send JSON');
  }
  if (
    setup?.protocol !== PIR_PROTOCOL ||
    !LABEL_TRANSPORTS.includes(setup.transport) ||
    !Number.isInteger(setup.entryCount) ||
    setup.entryCount < 1 ||
    !Number.isInteger(setup.entryBits) ||
    setup.entryBits < 1 ||
    !Number.isInteger(setup.maxBatch) ||
    setup.maxBatch < 1 ||
    typeof setup.candidateDigest !== 'string' ||
    !/^[0-9a-f]{64}$/.test(setup.candidateDigest)
  ) {
    throw new PirVerificationError(
      `setup: expected a ${PIR_PROTOCOL} setup, found ${JSON.stringify(setup).slice(0, 200)}`,
    );
  }
  return setup;
}

/** The provider must serve the auditor's candidate list: the same N, d and digest in the agreed order. */
export function checkAgreement(setup: ProviderSetup, candidates: AgreedCandidates): void {
  if (candidates.entryCount !== setup.entryCount || candidates.entryBits !== setup.entryBits) {
    throw new PirVerificationError(
      `setup: the provider serves ${setup.entryCount} entries of ${setup.entryBits} bits, the candidate set ` +
        `has ${candidates.entryCount} of ${candidates.entryBits}`,
    );
  }
  const ours = Buffer.from(candidates.digest).toString('hex');
  if (setup.candidateDigest !== ours) {
    throw new PirVerificationError(
      `candidate list: the provider commits to a list with digest ${setup.candidateDigest}, the auditor's list ` +
        `(ids and groups in the agreed order) has digest ${ours}`,
    );
  }
}

/** Parses POST /commit's JSON: the provider's 32-byte share, or PirVerificationError. */
function parseCommit(bytes: Uint8Array): Uint8Array {
  let response: CommitResponse;
  try {
    response = JSON.parse(Buffer.from(bytes).toString('utf8')) as CommitResponse;
  } catch {
    throw new PirVerificationError('commit: the provider did not send JSON');
  }
  if (
    typeof response?.providerShare !== 'string' ||
    !new RegExp(`^[0-9a-f]{${2 * NONCE_BYTES}}$`).test(response.providerShare)
  ) {
    throw new PirVerificationError(
      `commit: expected {"providerShare": ${2 * NONCE_BYTES} hex digits}, ` +
        `found ${JSON.stringify(response).slice(0, 200)}`,
    );
  }
  return new Uint8Array(Buffer.from(response.providerShare, 'hex'));
}

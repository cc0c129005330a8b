import { inputError, isInputError } from '../util/errors.js';
import { CHALLENGE_ROWS, choosePirParameters, type PirParameters } from './parameters.js';
import { PirClient, type QueryState } from './pir-client.js';
import { PirVerificationError } from './pir-verification-error.js';
import { LOOPBACK_HOST, type ProviderSetup } from './provider-service.js';
import { secretChallengeShape } from './secret-challenge.js';
import { decodeMessage, encodeMessage } from './wire-format.js';

/** Bytes and time spent talking to the provider. */
export interface TrafficCounters {
  offlineBytesReceived: number;
  offlineBytesSent: number;
  bytesSent: number;
  bytesReceived: number;
  offlineMs: number;
}

/**
 * The auditor's verified connection to a provider: the parameters (derived by the
 * auditor from the database size, not taken from the provider), a PirClient whose
 * commitment check passed, and byte counters. Make it with `ProviderConnection.connect`.
 */
export class ProviderConnection {
  readonly traffic: TrafficCounters;

  private constructor(
    readonly url: string,
    readonly setup: ProviderSetup,
    readonly client: PirClient,
    traffic: TrafficCounters,
  ) {
    this.traffic = traffic;
  }

  get parameters(): PirParameters {
    return this.client.parameters;
  }

  /**
   * ProviderConnection.connect(url, expected?) fetches /setup, /hint and /proof from a loopback provider,
   * derives the parameters from (entryCount, entryBits), and runs the commitment
   * checks of Figure 3; then, unless `secretChallenge` is false, VeriSimplePIR's
   * secret-challenge preprocessing (GET /challenge-hints, POST /challenge), after
   * which every answer is checked with a C the provider does not know. Throws
   * InputError for a non-loopback URL or one where no provider answers, and
   * PirVerificationError for a malformed or inconsistent digest or challenge.
   */
  static async connect(
    url: string,
    expected?: { entryCount: number; entryBits: number },
    options: { secretChallenge?: boolean } = {},
  ): Promise<ProviderConnection> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw inputError({ where: '--provider', expected: 'an http://127.0.0.1:PORT URL', found: url });
    }
    if (parsed.protocol !== 'http:' || parsed.hostname !== LOOPBACK_HOST) {
      throw inputError({ where: '--provider', expected: 'an http://127.0.0.1:PORT URL (loopback only)', found: url });
    }
    const base = `${parsed.protocol}//${parsed.host}`;
    const started = performance.now();
    const traffic: TrafficCounters = {
      offlineBytesReceived: 0,
      offlineBytesSent: 0,
      bytesSent: 0,
      bytesReceived: 0,
      offlineMs: 0,
    };
    let setupBytes: Uint8Array;
    try {
      setupBytes = await fetchBytes(`${base}/setup`);
    } catch (error) {
      if (error instanceof PirVerificationError) throw error;
      // fetch rejects with a TypeError whose cause says why (ECONNREFUSED: nothing listens).
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw inputError({
        where: '--provider',
        expected: 'the URL of a running "fairaudit pir serve"',
        found: `${url} (${cause?.code ?? cause?.message ?? (error as Error).message})`,
      });
    }
    traffic.offlineBytesReceived += setupBytes.length;
    const setup = parseSetup(setupBytes);
    if (expected && (expected.entryCount !== setup.entryCount || expected.entryBits !== setup.entryBits)) {
      throw new PirVerificationError(
        `setup: the provider serves ${setup.entryCount} entries of ${setup.entryBits} bits, the candidate set has ${expected.entryCount} of ${expected.entryBits}`,
      );
    }
    const parameters = choosePirParameters({ entryCount: setup.entryCount, entryBits: setup.entryBits });
    const hintBytes = await fetchBytes(`${base}/hint`);
    const proofBytes = await fetchBytes(`${base}/proof`);
    traffic.offlineBytesReceived += hintBytes.length + proofBytes.length;
    const hint = asVerification(() =>
      decodeMessage(hintBytes, 'hint', parameters.lweDimension, parameters.rows, 'PIR hint'),
    );
    if (hint.count !== parameters.rows) {
      throw new PirVerificationError(`PIR hint: expected ${parameters.rows} rows, found ${hint.count}`);
    }
    const proof = asVerification(() =>
      decodeMessage(proofBytes, 'proof', parameters.columns, 1 << 16, 'PIR commitment proof'),
    );
    const seed = new Uint8Array(Buffer.from(setup.seed, 'hex'));
    const client = await PirClient.create(parameters, seed, hint.words);
    client.verifyCommitment(new Int32Array(proof.words.buffer));
    if (options.secretChallenge ?? true) await secretChallenge(base, client, setup, traffic);
    traffic.offlineMs = performance.now() - started;
    return new ProviderConnection(base, setup, client, traffic);
  }

  /**
   * retrieve(entryIndices) fetches the entries through PIR in one batch: one query
   * per index, one POST, every answer decrypted and verified (noise bound and
   * Z·u = C·v). Returns the entries in order. O(batch·(mn + ℓn)) on the client.
   * Throws PirVerificationError for a malformed or unverifiable answer.
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
    const response = await fetch(`${this.url}/answer`, { method: 'POST', body });
    const bytes = new Uint8Array(await response.arrayBuffer());
    this.traffic.bytesReceived += bytes.length;
    if (!response.ok) {
      throw new PirVerificationError(`provider refused the queries (HTTP ${response.status}): ${Buffer.from(bytes).toString()}`);
    }
    const answers = asVerification(() => decodeMessage(bytes, 'answer', rows, states.length, 'PIR answer'));
    if (answers.count !== states.length) {
      throw new PirVerificationError(`PIR answer: expected ${states.length} answers, found ${answers.count}`);
    }
    return states.map((state, q) =>
      this.client.recover(answers.words.subarray(q * rows, (q + 1) * rows), state, entryIndices[q]),
    );
  }

  /** shutdown() asks the provider to stop (POST /shutdown). */
  async shutdown(): Promise<void> {
    await ProviderConnection.requestShutdown(this.url);
  }

  /**
   * requestShutdown(url) asks a loopback provider to stop even when no verified
   * connection exists (e.g. after a rejected digest). Throws InputError for a URL
   * that is not http://127.0.0.1:PORT.
   */
  static async requestShutdown(url: string): Promise<void> {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' || parsed.hostname !== LOOPBACK_HOST) {
      throw inputError({ where: '--provider', expected: 'an http://127.0.0.1:PORT URL (loopback only)', found: url });
    }
    await fetch(`http://${parsed.host}/shutdown`, { method: 'POST' }).then((response) => response.arrayBuffer());
  }
}

async function secretChallenge(
  base: string,
  client: PirClient,
  setup: ProviderSetup,
  traffic: TrafficCounters,
): Promise<void> {
  const { parameters } = client;
  const shape = secretChallengeShape(parameters);
  const seed = new Uint8Array(Buffer.from(setup.challengeSeed, 'hex'));
  const hintBytes = await fetchBytes(`${base}/challenge-hints`);
  traffic.offlineBytesReceived += hintBytes.length;
  const hints = asVerification(() =>
    decodeMessage(hintBytes, 'challenge-hint', parameters.lweDimension, shape.planes * parameters.columns, 'PIR challenge hints'),
  );
  const { encrypted, state } = client.beginSecretChallenge(seed);
  const body = encodeMessage('challenge', encrypted, parameters.rows, CHALLENGE_ROWS);
  traffic.offlineBytesSent += body.length;
  const response = await fetch(`${base}/challenge`, { method: 'POST', body });
  const bytes = new Uint8Array(await response.arrayBuffer());
  traffic.offlineBytesReceived += bytes.length;
  if (!response.ok) {
    throw new PirVerificationError(`provider refused the secret challenge (HTTP ${response.status}): ${Buffer.from(bytes).toString()}`);
  }
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

async function fetchBytes(url: string): Promise<Uint8Array> {
  const response = await fetch(url);
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (!response.ok) throw new PirVerificationError(`${url}: HTTP ${response.status}`);
  return bytes;
}

function parseSetup(bytes: Uint8Array): ProviderSetup {
  let setup: ProviderSetup;
  try {
    setup = JSON.parse(Buffer.from(bytes).toString('utf8')) as ProviderSetup;
  } catch {
    throw new PirVerificationError('setup: the provider did not send JSON');
  }
  if (
    setup?.protocol !== 'fairaudit-pir/1' ||
    !Number.isInteger(setup.entryCount) ||
    !Number.isInteger(setup.entryBits) ||
    typeof setup.seed !== 'string' ||
    !/^[0-9a-f]{32}$/.test(setup.seed) ||
    typeof setup.challengeSeed !== 'string' ||
    !/^[0-9a-f]{32}$/.test(setup.challengeSeed)
  ) {
    throw new PirVerificationError(`setup: malformed provider setup ${JSON.stringify(setup).slice(0, 200)}`);
  }
  return setup;
}

import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inputError, isInputError } from '../util/errors.js';
import { CANDIDATE_DIGEST_BYTES } from './candidate-digest.js';
import { type CommitmentBinding, NONCE_BYTES, publicSeeds } from './commitment-binding.js';
import { CHALLENGE_ROWS } from './parameters.js';
import type { PirServer } from './pir-server.js';
import { secretChallengeShape } from './secret-challenge.js';
import { ProviderRefusal, type VoprfLabelProvider } from './voprf-provider.js';
import { ELEMENT_BYTES, tableBytes } from './voprf-suite.js';
import { decodeMessage, encodeMessage, HEADER_BYTES } from './wire-format.js';

/** The only address the PIR services bind to or talk to. */
export const LOOPBACK_HOST = '127.0.0.1';

/** The host names a request's Host header may carry (with the service's port). */
export const LOOPBACK_NAMES: readonly string[] = [LOOPBACK_HOST, 'localhost'];

/** The protocol both sides speak; /setup names it and the auditor refuses any other. */
export const PIR_PROTOCOL = 'fairaudit-pir/3';

/**
 * The label transports: `voprf`, the k-out-of-N oblivious transfer from a verifiable
 * OPRF (the auditor learns exactly the labels it pays for), and `simplepir`, SimplePIR
 * with a VeriSimplePIR commitment (post-quantum hiding of S, but not symmetric: the
 * auditor can read every label).
 */
export type LabelTransportName = 'voprf' | 'simplepir';
export const LABEL_TRANSPORTS: readonly LabelTransportName[] = ['voprf', 'simplepir'];

/** The largest JSON body the provider reads (POST /commit) and the auditor accepts (/setup, /commit). */
export const MAX_JSON_BYTES = 4096;

/** What the provider publishes at GET /setup (the auditor derives the parameters itself). */
export interface ProviderSetup {
  readonly protocol: typeof PIR_PROTOCOL;
  readonly transport: LabelTransportName;
  readonly entryCount: number;
  readonly entryBits: number;
  /** candidateListDigest of the provider's candidate list, hex: it must equal the auditor's. */
  readonly candidateDigest: string;
  readonly maxBatch: number;
  /** voprf only: pk and the table id (hex), the most labels one audit may learn, and |T| in bytes. */
  readonly publicKey?: string;
  readonly tableId?: string;
  readonly maxEvaluationsPerAudit?: number;
  readonly tableBytes?: number;
}

/** What POST /commit returns: the provider's share of the public seeds, hex (the hint and proof follow at GET /hint,
 * /proof). */
export interface CommitResponse {
  readonly providerShare: string;
}

/** How a provider service starts: its PIR server, setup, port, token and limits. */
export interface ProviderServiceOptions {
  /** simplepir: the database to commit to (a fresh hint and proof per audit, bound to its nonce). */
  readonly server?: PirServer;
  /** voprf: the masked label table and its per-audit budgets (exactly one of server and labelProvider). */
  readonly labelProvider?: VoprfLabelProvider;
  /** candidateListDigest of the candidate list the database labels, in its order. */
  readonly candidateDigest: Uint8Array;
  /**
   * The table actually used to answer: `server` for an honest provider, another
   * PirServer for a cheating one (tests and `pir serve --tamper`).
   */
  readonly answerFrom?: PirServer;
  /**
   * A cheating provider (tests and `pir serve --tamper replay`): it commits once, for
   * the first nonce it receives, and returns that transcript to every later audit.
   */
  readonly replay?: boolean;
  /** The bearer token every request must carry; 32 bytes from node:crypto (hex) when absent. */
  readonly token?: string;
  readonly port?: number;
  /** Stop after this long without an authorised request (bounded lifetime). */
  readonly idleTimeoutMs: number;
  /** Largest batch of queries in one POST /answer. */
  readonly maxBatch?: number;
}

/** A running provider service: its address, token and counters, and close(). */
export interface ProviderService {
  readonly url: string;
  /** The bearer token (hex) every request needs: keep it out of logs (`pir serve` writes it to a 0600 file). */
  readonly token: string;
  /** Resolves once the service has stopped (idle timeout, POST /shutdown or close()). */
  readonly stopped: Promise<void>;
  readonly counters: {
    requests: number;
    /** Requests refused before routing: a wrong Host header (403) or a missing or wrong token (401). */
    refused: number;
    commitments: number;
    queries: number;
    bytesIn: number;
    bytesOut: number;
  };
  close(): Promise<void>;
}

/** One audit's commitment: its binding, the seed of A_2, and the messages sent as they are. */
interface Commitment {
  readonly binding: CommitmentBinding;
  readonly challengeSeed: Uint8Array;
  readonly hintMessage: Uint8Array;
  readonly proofMessage: Uint8Array;
  /** Built on the first GET /challenge-hints (the secret-challenge preprocessing). */
  challengeHintMessage?: Uint8Array;
}

/** What the request handler of a provider service works with. */
interface ProviderState {
  readonly setup: ProviderSetup;
  readonly server?: PirServer;
  readonly answerFrom?: PirServer;
  readonly labelProvider?: VoprfLabelProvider;
  readonly candidateDigest: Uint8Array;
  readonly replay: boolean;
  readonly token: Buffer;
  readonly maxBatch: number;
  readonly counters: ProviderService['counters'];
  /** Each audit's commitment, keyed by the auditor's nonce (hex): audits never share state. */
  readonly commitments: Map<string, Commitment>;
  /** A replaying provider's first commitment (`replay`), sent to every later audit. */
  firstCommitment?: Commitment;
  port: number;
  readonly close: () => Promise<void>;
}

/** An HTTP error with its status, for requests refused before or during routing. */
class RequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function readBody(request: IncomingMessage, limit: number, what: string): Promise<Uint8Array> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    throw inputError({ where: what, expected: `at most ${limit} bytes`, found: `${declared} bytes` });
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      throw inputError({ where: what, expected: `at most ${limit} bytes`, found: `more than ${limit} bytes` });
    }
    chunks.push(chunk as Buffer);
  }
  return new Uint8Array(Buffer.concat(chunks));
}

/** Stage 1: what the provider publishes (setup) and its counters; commitments come per audit. */
function providerState(options: ProviderServiceOptions, close: () => Promise<void>): ProviderState {
  const { server, labelProvider, candidateDigest } = options;
  if ((server === undefined) === (labelProvider === undefined)) {
    throw new Error('startProviderService: give exactly one of server (simplepir) and labelProvider (voprf)');
  }
  if (candidateDigest.length !== CANDIDATE_DIGEST_BYTES) {
    throw new Error(
      `startProviderService: the candidate digest must have ${CANDIDATE_DIGEST_BYTES} bytes, ` +
        `found ${candidateDigest.length}`,
    );
  }
  const maxBatch = options.maxBatch ?? 256;
  const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
  const labels = labelProvider?.labels;
  const entryCount = server?.parameters.entryCount ?? (labels?.entryCount as number);
  const entryBits = server?.parameters.entryBits ?? (labels?.entryBits as number);
  return {
    setup: {
      protocol: PIR_PROTOCOL,
      transport: server ? 'simplepir' : 'voprf',
      entryCount,
      entryBits,
      candidateDigest: hex(candidateDigest),
      maxBatch,
      ...(labelProvider && labels
        ? {
            publicKey: hex(labels.publicKey),
            tableId: hex(labels.tableId),
            maxEvaluationsPerAudit: labelProvider.maxEvaluationsPerAudit,
            tableBytes: tableBytes(entryCount, entryBits),
          }
        : {}),
    },
    ...(server ? { server, answerFrom: options.answerFrom ?? server } : {}),
    ...(labelProvider ? { labelProvider } : {}),
    commitments: new Map(),
    candidateDigest,
    replay: options.replay ?? false,
    token: Buffer.from(options.token ?? randomBytes(32).toString('hex')),
    maxBatch,
    counters: { requests: 0, refused: 0, commitments: 0, queries: 0, bytesIn: 0, bytesOut: 0 },
    port: 0,
    close,
  };
}

function send(
  state: ProviderState,
  response: ServerResponse,
  status: number,
  type: string,
  body: Uint8Array,
  headers = {},
): void {
  state.counters.bytesOut += body.length;
  response.writeHead(status, { 'content-type': type, 'content-length': body.length, ...headers });
  response.end(body);
}

/**
 * Stage 2a: who may ask. The Host header must name the loopback service (127.0.0.1 or
 * localhost with its port: a web page whose name resolves to 127.0.0.1 is refused, 403),
 * and the Authorization header must carry the bearer token (compared in constant time;
 * 401 otherwise).
 */
function checkAccess(state: ProviderState, request: IncomingMessage): void {
  const host = request.headers.host ?? '';
  if (!LOOPBACK_NAMES.some((name) => host === `${name}:${state.port}`)) {
    throw new RequestError(
      403,
      `Host header: expected 127.0.0.1:${state.port} or localhost:${state.port}, ` +
        `found ${JSON.stringify(host.slice(0, 100))}`,
    );
  }
  const given = Buffer.from(/^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '');
  if (given.length !== state.token.length || !timingSafeEqual(given, state.token)) {
    throw new RequestError(401, 'expected the bearer token of this provider (Authorization: Bearer TOKEN)');
  }
}

/** The most SimplePIR audits whose commitments (a hint each) the service keeps at once; more is a 503. */
export const MAX_OPEN_SIMPLEPIR_AUDITS = 64;

/** Parses a JSON body {"nonce": 64 hex digits, ...}, or InputError naming `what`. */
async function readNonceRequest(
  state: ProviderState,
  request: IncomingMessage,
  what: string,
): Promise<{ nonce: string; evaluations?: unknown }> {
  const body = await readBody(request, MAX_JSON_BYTES, what);
  state.counters.bytesIn += body.length;
  let parsed: { nonce?: unknown; evaluations?: unknown } | undefined;
  try {
    parsed = JSON.parse(Buffer.from(body).toString('utf8')) as typeof parsed;
  } catch {
    parsed = undefined;
  }
  const nonce = parsed?.nonce;
  if (typeof nonce !== 'string' || !new RegExp(`^[0-9a-f]{${2 * NONCE_BYTES}}$`).test(nonce)) {
    throw inputError({
      where: what,
      expected: `{"nonce": ${2 * NONCE_BYTES} hex digits}`,
      found: Buffer.from(body).toString('utf8').slice(0, 100),
    });
  }
  return { nonce, evaluations: parsed?.evaluations };
}

/**
 * POST /commit (simplepir): the auditor's fresh nonce in ({"nonce": 64 hex digits}), the
 * provider's share out; commits to D for this audit: seeds of A and A_2 from (share, nonce,
 * candidate digest), hint H = D·A, the Fiat-Shamir challenge over all of it, proof Z. The
 * commitment is kept under this nonce only: another audit's /commit never replaces it. A
 * replaying provider (`replay`) answers every nonce with its first commitment.
 */
async function commit(state: ProviderState, request: IncomingMessage): Promise<Uint8Array> {
  const server = state.server as PirServer;
  const { nonce } = await readNonceRequest(state, request, 'PIR commit request');
  if (state.commitments.has(nonce))
    throw new RequestError(409, 'this nonce already has a commitment: draw a fresh one');
  if (state.commitments.size >= MAX_OPEN_SIMPLEPIR_AUDITS) {
    throw new RequestError(503, `${MAX_OPEN_SIMPLEPIR_AUDITS} audits are open: POST /close for finished ones`);
  }
  let commitment = state.replay ? state.firstCommitment : undefined;
  if (!commitment) {
    const { parameters } = server;
    const binding: CommitmentBinding = {
      candidateDigest: state.candidateDigest,
      auditorNonce: new Uint8Array(Buffer.from(nonce, 'hex')),
      providerShare: new Uint8Array(randomBytes(NONCE_BYTES)),
    };
    const { hint, proof } = server.commit(binding);
    commitment = {
      binding,
      challengeSeed: publicSeeds(binding).challengeMatrix,
      hintMessage: encodeMessage('hint', hint, parameters.rows, parameters.lweDimension),
      proofMessage: encodeMessage('proof', proof, proof.length / parameters.columns, parameters.columns),
    };
    state.firstCommitment ??= commitment;
    state.counters.commitments++;
  }
  state.commitments.set(nonce, commitment);
  const response: CommitResponse = { providerShare: Buffer.from(commitment.binding.providerShare).toString('hex') };
  return Buffer.from(JSON.stringify(response));
}

/** The commitment of the audit named by ?audit=NONCE (409 when that audit has none). */
function auditCommitment(state: ProviderState, audit: string | null): Commitment {
  const commitment = audit === null ? undefined : state.commitments.get(audit);
  if (!commitment) throw new RequestError(409, 'no commitment for this audit: POST /commit with its nonce first');
  return commitment;
}

/** POST /answer: framed queries in, one matrix product per batch, framed answers out. */
async function answerQueries(state: ProviderState, request: IncomingMessage): Promise<Uint8Array> {
  const { parameters } = state.server as PirServer;
  const body = await readBody(request, HEADER_BYTES + state.maxBatch * parameters.columns * 4, 'PIR query');
  state.counters.bytesIn += body.length;
  const { words, count } = decodeMessage(body, 'query', parameters.columns, state.maxBatch, 'PIR query');
  state.counters.queries += count;
  return encodeMessage('answer', (state.answerFrom as PirServer).answer(words, count), count, parameters.rows);
}

/** GET /challenge-hints?audit=NONCE: the hints of this audit's A_2, built once per commitment. */
function challengeHints(state: ProviderState, audit: string | null): Uint8Array {
  const { parameters } = state.server as PirServer;
  const commitment = auditCommitment(state, audit);
  commitment.challengeHintMessage ??= encodeMessage(
    'challenge-hint',
    (state.answerFrom as PirServer).challengeHints(commitment.challengeSeed),
    secretChallengeShape(parameters).planes * parameters.columns,
    parameters.lweDimension,
  );
  return commitment.challengeHintMessage;
}

/** POST /challenge?audit=NONCE: the auditor's secret challenge vectors in, their answers out. */
async function answerChallenge(
  state: ProviderState,
  request: IncomingMessage,
  audit: string | null,
): Promise<Uint8Array> {
  const { parameters } = state.server as PirServer;
  auditCommitment(state, audit);
  const body = await readBody(request, HEADER_BYTES + parameters.rows * CHALLENGE_ROWS * 4, 'PIR secret challenge');
  state.counters.bytesIn += body.length;
  const { words } = decodeMessage(body, 'challenge', CHALLENGE_ROWS, parameters.rows, 'PIR secret challenge');
  if (words.length !== parameters.rows * CHALLENGE_ROWS) {
    throw inputError({
      where: 'PIR secret challenge',
      expected: `${parameters.rows} vectors`,
      found: words.length / CHALLENGE_ROWS,
    });
  }
  const answers = (state.answerFrom as PirServer).answerChallenge(words);
  return encodeMessage(
    'challenge-answer',
    answers,
    secretChallengeShape(parameters).planes * parameters.columns,
    CHALLENGE_ROWS,
  );
}

/** POST /voprf/commit: {"nonce", "evaluations": |S|+k} in, {"commitment": hex} out (one audit's budget). */
async function openLabelAudit(state: ProviderState, request: IncomingMessage): Promise<Uint8Array> {
  const provider = state.labelProvider as VoprfLabelProvider;
  const { nonce, evaluations } = await readNonceRequest(state, request, 'label-transfer commit request');
  if (typeof evaluations !== 'number' || !Number.isInteger(evaluations) || evaluations < 1) {
    throw inputError({
      where: 'label-transfer commit request',
      expected: '"evaluations": a positive integer (|S| + k)',
      found: String(evaluations).slice(0, 40),
    });
  }
  const commitment = provider.open(new Uint8Array(Buffer.from(nonce, 'hex')), evaluations);
  state.counters.commitments++;
  return Buffer.from(JSON.stringify({ commitment }));
}

/** POST /voprf/evaluate?audit=NONCE: blinded elements in, evaluated elements and one DLEQ proof out. */
async function evaluateBlinded(
  state: ProviderState,
  request: IncomingMessage,
  audit: string | null,
): Promise<Uint8Array> {
  const provider = state.labelProvider as VoprfLabelProvider;
  const body = await readBody(request, state.maxBatch * ELEMENT_BYTES, 'label-transfer evaluation');
  state.counters.bytesIn += body.length;
  const out = provider.evaluate(audit ?? '', body);
  state.counters.queries += body.length / ELEMENT_BYTES;
  return out;
}

/** POST /close?audit=NONCE: forget a finished audit's SimplePIR commitment (its hint). */
function closeAudit(state: ProviderState, audit: string | null): Uint8Array {
  if (audit !== null) state.commitments.delete(audit);
  return Buffer.from('closed');
}

/** Stage 2b: one authorised request, routed by transport; an unknown route is a 404. */
async function route(state: ProviderState, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://loopback');
  const audit = url.searchParams.get('audit');
  const path = `${request.method} ${url.pathname}`;
  const binary = 'application/octet-stream';
  const json = 'application/json';
  const reply = (type: string, body: Uint8Array) => send(state, response, 200, type, body);
  if (path === 'GET /setup') return reply(json, Buffer.from(JSON.stringify(state.setup)));
  if (path === 'POST /shutdown') {
    reply('text/plain', Buffer.from('stopping'));
    setImmediate(() => void state.close());
    return;
  }
  if (state.labelProvider) {
    if (path === 'POST /voprf/commit') return reply(json, await openLabelAudit(state, request));
    if (path === 'GET /voprf/table') return reply(binary, state.labelProvider.table());
    if (path === 'POST /voprf/evaluate') return reply(binary, await evaluateBlinded(state, request, audit));
  } else {
    if (path === 'POST /commit') return reply(json, await commit(state, request));
    if (path === 'GET /hint') return reply(binary, auditCommitment(state, audit).hintMessage);
    if (path === 'GET /proof') return reply(binary, auditCommitment(state, audit).proofMessage);
    if (path === 'POST /answer') return reply(binary, await answerQueries(state, request));
    if (path === 'GET /challenge-hints') return reply(binary, challengeHints(state, audit));
    if (path === 'POST /challenge') return reply(binary, await answerChallenge(state, request, audit));
    if (path === 'POST /close') return reply('text/plain', closeAudit(state, audit));
  }
  send(state, response, 404, 'text/plain', Buffer.from(`no route ${path.slice(0, 200)}`));
}

/** Stage 3: the service's lifetime: it stops after idleTimeoutMs without an authorised request, on POST /shutdown or
 * close(). */
function lifetime(http: Server, idleTimeoutMs: number) {
  let idleTimer: NodeJS.Timeout | undefined;
  let resolveStopped: () => void = () => {};
  const stopped = new Promise<void>((resolve) => {
    resolveStopped = resolve;
  });
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      if (idleTimer) clearTimeout(idleTimer);
      http.close(() => {
        resolveStopped();
        resolve();
      });
      http.closeAllConnections();
    });
    return closing;
  };
  const arm = (): void => {
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = setTimeout(() => void close(), idleTimeoutMs);
    idleTimer.unref();
  };
  return { stopped, close, arm };
}

/** The body bytes a refused request may send before its connection is closed. */
const REFUSED_BODY_BYTES = 64 * 1024;

/**
 * A refused request's body is read (so a small one does not reset the connection before
 * the refusal arrives) only up to REFUSED_BODY_BYTES: then the connection is closed. It was
 * read to its end, 3.5 GB in 8 s after the 401.
 */
function discardRefusedBody(request: IncomingMessage, response: ServerResponse): void {
  response.setHeader('connection', 'close');
  let read = 0;
  request.on('data', (chunk: Buffer) => {
    read += chunk.byteLength;
    if (read > REFUSED_BODY_BYTES) request.socket.destroy();
  });
}

/** Refusals and failures as text: 401 (with WWW-Authenticate), 403, 409, 400 for bad input, 500 otherwise. */
function refuse(state: ProviderState, response: ServerResponse, error: unknown): void {
  const status =
    error instanceof RequestError || error instanceof ProviderRefusal ? error.status : isInputError(error) ? 400 : 500;
  const headers = status === 401 ? { 'www-authenticate': 'Bearer realm="fairaudit-pir"' } : {};
  if (response.headersSent) {
    response.destroy();
    return;
  }
  send(state, response, status, 'text/plain', Buffer.from((error as Error).message ?? String(error)), headers);
}

/**
 * startProviderService(options) serves the provider's side of the oblivious audit
 * over loopback HTTP on 127.0.0.1 (never another interface). Every request must carry
 * a Host header naming the loopback service (403 otherwise) and the service's bearer
 * token (401 otherwise; the service keeps running and the refusal does not extend its
 * life). Routes: GET /setup (JSON ProviderSetup), POST /commit (the auditor's nonce in,
 * the provider's share out: a commitment bound to this audit, see commit), GET /hint and
 * GET /proof (framed binary, see wire-format.ts), GET /challenge-hints and POST
 * /challenge (the secret-challenge preprocessing, see PirClient.beginSecretChallenge),
 * POST /answer (framed queries in, framed answers out, one matrix product per batch),
 * POST /shutdown. Request bodies are capped at their expected size; a malformed
 * request gets HTTP 400 with a message saying what was expected and found. The service
 * stops by itself after `idleTimeoutMs` without an authorised request. Stages: state
 * (setup, token), access (Host, token), routes, lifetime (idle timer, close), listen.
 * Rejects with the listen error (EADDRINUSE for a busy port).
 * @param options the PIR server, the setup and the access rules
 * @returns the running service (its url, token and close())
 * @example
 * const service = await startProviderService(options);
 * await service.close();
 */
export async function startProviderService(options: ProviderServiceOptions): Promise<ProviderService> {
  const http = createServer({ maxHeaderSize: 8192 }, (request, response) => {
    try {
      checkAccess(state, request);
    } catch (error) {
      state.counters.refused++;
      discardRefusedBody(request, response);
      refuse(state, response, error);
      return;
    }
    life.arm();
    state.counters.requests++;
    route(state, request, response).catch((error: unknown) => refuse(state, response, error));
  });
  // An auditor computes its next batch between requests (blinding, proof checks): on a loaded
  // machine that can outlast Node's 5 s keep-alive, and a request racing the socket's close
  // fails. Keep idle sockets for 30 s (below the 60 s header timeout).
  http.keepAliveTimeout = 30_000;
  const life = lifetime(http, options.idleTimeoutMs);
  const state = providerState(options, life.close);
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, LOOPBACK_HOST, () => resolve());
  });
  life.arm();
  state.port = (http.address() as AddressInfo).port;
  return {
    url: `http://${LOOPBACK_HOST}:${state.port}`,
    token: state.token.toString(),
    stopped: life.stopped,
    counters: state.counters,
    close: life.close,
  };
}

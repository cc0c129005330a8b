import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inputError, isInputError } from '../util/errors.js';
import { randomBytes } from 'node:crypto';
import { CHALLENGE_ROWS } from './parameters.js';
import type { PirServer } from './pir-server.js';
import { secretChallengeShape } from './secret-challenge.js';
import { decodeMessage, encodeMessage, HEADER_BYTES } from './wire-format.js';

/** The only address the PIR services bind to or talk to. */
export const LOOPBACK_HOST = '127.0.0.1';

/** What the provider publishes at GET /setup (the auditor derives the parameters itself). */
export interface ProviderSetup {
  readonly protocol: 'fairaudit-pir/1';
  readonly entryCount: number;
  readonly entryBits: number;
  /** The seed of A, hex. */
  readonly seed: string;
  /** The seed of A_2 for the secret-challenge preprocessing, hex. */
  readonly challengeSeed: string;
  readonly maxBatch: number;
}

export interface ProviderServiceOptions {
  /** The committed database (hint and proof come from its `commit()`). */
  readonly server: PirServer;
  readonly hint: Uint32Array;
  readonly proof: Int32Array;
  /**
   * The table actually used to answer: `server` for an honest provider, another
   * PirServer for a cheating one (tests and `pir serve --tamper`).
   */
  readonly answerFrom?: PirServer;
  readonly port?: number;
  /** Stop after this long without a request (bounded lifetime). */
  readonly idleTimeoutMs: number;
  /** Largest batch of queries in one POST /answer. */
  readonly maxBatch?: number;
}

export interface ProviderService {
  readonly url: string;
  /** Resolves once the service has stopped (idle timeout, POST /shutdown or close()). */
  readonly stopped: Promise<void>;
  readonly counters: { requests: number; queries: number; bytesIn: number; bytesOut: number };
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage, limit: number): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      throw inputError({ where: 'PIR query', expected: `at most ${limit} bytes`, found: `more than ${limit} bytes` });
    }
    chunks.push(chunk as Buffer);
  }
  return new Uint8Array(Buffer.concat(chunks));
}

/** What the request handler of a provider service works with. */
interface ProviderState {
  readonly setup: ProviderSetup;
  readonly server: PirServer;
  readonly answerFrom: PirServer;
  readonly maxBatch: number;
  readonly counters: ProviderService['counters'];
  readonly hintMessage: Uint8Array;
  readonly proofMessage: Uint8Array;
  /** Built on the first GET /challenge-hints (the secret-challenge preprocessing). */
  challengeHintMessage?: Uint8Array;
  readonly close: () => Promise<void>;
}

/** Stage 1: what the provider publishes and sends unchanged (setup, hint, proof), and its counters. */
function providerState(options: ProviderServiceOptions, close: () => Promise<void>): ProviderState {
  const { server, hint, proof } = options;
  const { parameters } = server;
  const maxBatch = options.maxBatch ?? 256;
  return {
    setup: {
      protocol: 'fairaudit-pir/1',
      entryCount: parameters.entryCount,
      entryBits: parameters.entryBits,
      seed: Buffer.from(server.seed).toString('hex'),
      challengeSeed: randomBytes(16).toString('hex'),
      maxBatch,
    },
    server,
    answerFrom: options.answerFrom ?? server,
    maxBatch,
    counters: { requests: 0, queries: 0, bytesIn: 0, bytesOut: 0 },
    hintMessage: encodeMessage('hint', hint, parameters.rows, parameters.lweDimension),
    proofMessage: encodeMessage('proof', proof, proof.length / parameters.columns, parameters.columns),
    close,
  };
}

function send(state: ProviderState, response: ServerResponse, status: number, type: string, body: Uint8Array): void {
  state.counters.bytesOut += body.length;
  response.writeHead(status, { 'content-type': type, 'content-length': body.length });
  response.end(body);
}

/** POST /answer: framed queries in, one matrix product per batch, framed answers out. */
async function answerQueries(state: ProviderState, request: IncomingMessage): Promise<Uint8Array> {
  const { parameters } = state.server;
  const body = await readBody(request, HEADER_BYTES + state.maxBatch * parameters.columns * 4);
  state.counters.bytesIn += body.length;
  const { words, count } = decodeMessage(body, 'query', parameters.columns, state.maxBatch, 'PIR query');
  state.counters.queries += count;
  return encodeMessage('answer', state.answerFrom.answer(words, count), count, parameters.rows);
}

/** GET /challenge-hints: the hints of the secret challenge's matrix, built once. */
function challengeHints(state: ProviderState): Uint8Array {
  const { parameters } = state.server;
  state.challengeHintMessage ??= encodeMessage(
    'challenge-hint',
    state.answerFrom.challengeHints(Buffer.from(state.setup.challengeSeed, 'hex')),
    secretChallengeShape(parameters).planes * parameters.columns,
    parameters.lweDimension,
  );
  return state.challengeHintMessage;
}

/** POST /challenge: the auditor's secret challenge vectors in, their answers out. */
async function answerChallenge(state: ProviderState, request: IncomingMessage): Promise<Uint8Array> {
  const { parameters } = state.server;
  const body = await readBody(request, HEADER_BYTES + parameters.rows * CHALLENGE_ROWS * 4);
  state.counters.bytesIn += body.length;
  const { words } = decodeMessage(body, 'challenge', CHALLENGE_ROWS, parameters.rows, 'PIR secret challenge');
  if (words.length !== parameters.rows * CHALLENGE_ROWS) {
    throw inputError({ where: 'PIR secret challenge', expected: `${parameters.rows} vectors`, found: words.length / CHALLENGE_ROWS });
  }
  const answers = state.answerFrom.answerChallenge(words);
  return encodeMessage('challenge-answer', answers, secretChallengeShape(parameters).planes * parameters.columns, CHALLENGE_ROWS);
}

/** Stage 2: one request, routed; an unknown route is a 404. */
async function handle(state: ProviderState, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const route = `${request.method} ${request.url}`;
  const binary = 'application/octet-stream';
  if (route === 'GET /setup') return send(state, response, 200, 'application/json', Buffer.from(JSON.stringify(state.setup)));
  if (route === 'GET /hint') return send(state, response, 200, binary, state.hintMessage);
  if (route === 'GET /proof') return send(state, response, 200, binary, state.proofMessage);
  if (route === 'POST /answer') return send(state, response, 200, binary, await answerQueries(state, request));
  if (route === 'GET /challenge-hints') return send(state, response, 200, binary, challengeHints(state));
  if (route === 'POST /challenge') return send(state, response, 200, binary, await answerChallenge(state, request));
  if (route === 'POST /shutdown') {
    send(state, response, 200, 'text/plain', Buffer.from('stopping'));
    setImmediate(() => void state.close());
    return;
  }
  send(state, response, 404, 'text/plain', Buffer.from(`no route ${route}`));
}

/** Stage 3: the service's lifetime: it stops after idleTimeoutMs without a request, on POST /shutdown or close(). */
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

/**
 * startProviderService(options) serves the provider's side of the oblivious audit
 * over loopback HTTP on 127.0.0.1 (never another interface):
 * GET /setup (JSON ProviderSetup), GET /hint and GET /proof (framed binary, see
 * wire-format.ts), GET /challenge-hints and POST /challenge (the secret-challenge
 * preprocessing, see PirClient.beginSecretChallenge), POST /answer (framed queries in,
 * framed answers out, one matrix product per batch), POST /shutdown. A malformed query gets HTTP 400 with a message
 * saying what was expected and found. The service stops by itself after
 * `idleTimeoutMs` without a request. Stages: state (setup, hint, proof), routes
 * (handle), lifetime (idle timer, close), listen.
 */
export async function startProviderService(options: ProviderServiceOptions): Promise<ProviderService> {
  const http = createServer((request, response) => {
    life.arm();
    state.counters.requests++;
    handle(state, request, response).catch((error: unknown) => {
      const status = isInputError(error) ? 400 : 500;
      send(state, response, status, 'text/plain', Buffer.from((error as Error).message ?? String(error)));
    });
  });
  const life = lifetime(http, options.idleTimeoutMs);
  const state = providerState(options, life.close);
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, LOOPBACK_HOST, () => resolve());
  });
  life.arm();
  const { port } = http.address() as AddressInfo;
  return { url: `http://${LOOPBACK_HOST}:${port}`, stopped: life.stopped, counters: state.counters, close: life.close };
}

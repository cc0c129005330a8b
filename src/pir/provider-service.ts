import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
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

/**
 * startProviderService(options) serves the provider's side of the oblivious audit
 * over loopback HTTP on 127.0.0.1 (never another interface):
 * GET /setup (JSON ProviderSetup), GET /hint and GET /proof (framed binary, see
 * wire-format.ts), GET /challenge-hints and POST /challenge (the secret-challenge
 * preprocessing, see PirClient.beginSecretChallenge), POST /answer (framed queries in,
 * framed answers out, one matrix product per batch), POST /shutdown. A malformed query gets HTTP 400 with a message
 * saying what was expected and found. The service stops by itself after
 * `idleTimeoutMs` without a request.
 */
export async function startProviderService(options: ProviderServiceOptions): Promise<ProviderService> {
  const { server, hint, proof, idleTimeoutMs } = options;
  const answerFrom = options.answerFrom ?? server;
  const maxBatch = options.maxBatch ?? 256;
  const { parameters } = server;
  const setup: ProviderSetup = {
    protocol: 'fairaudit-pir/1',
    entryCount: parameters.entryCount,
    entryBits: parameters.entryBits,
    seed: Buffer.from(server.seed).toString('hex'),
    challengeSeed: randomBytes(16).toString('hex'),
    maxBatch,
  };
  const challengeShape = secretChallengeShape(parameters);
  let challengeHintMessage: Uint8Array | undefined;
  const hintMessage = encodeMessage('hint', hint, parameters.rows, parameters.lweDimension);
  const proofMessage = encodeMessage('proof', proof, proof.length / parameters.columns, parameters.columns);
  const counters = { requests: 0, queries: 0, bytesIn: 0, bytesOut: 0 };
  const bodyLimit = HEADER_BYTES + maxBatch * parameters.columns * 4;

  let idleTimer: NodeJS.Timeout | undefined;
  let resolveStopped: () => void = () => {};
  const stopped = new Promise<void>((resolve) => {
    resolveStopped = resolve;
  });
  const http = createServer((request, response) => {
    armIdleTimer();
    counters.requests++;
    handle(request, response).catch((error: unknown) => {
      const status = isInputError(error) ? 400 : 500;
      send(response, status, 'text/plain', Buffer.from((error as Error).message ?? String(error)));
    });
  });
  function send(response: ServerResponse, status: number, type: string, body: Uint8Array): void {
    counters.bytesOut += body.length;
    response.writeHead(status, { 'content-type': type, 'content-length': body.length });
    response.end(body);
  }
  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const route = `${request.method} ${request.url}`;
    if (route === 'GET /setup') return send(response, 200, 'application/json', Buffer.from(JSON.stringify(setup)));
    if (route === 'GET /hint') return send(response, 200, 'application/octet-stream', hintMessage);
    if (route === 'GET /proof') return send(response, 200, 'application/octet-stream', proofMessage);
    if (route === 'POST /answer') {
      const body = await readBody(request, bodyLimit);
      counters.bytesIn += body.length;
      const { words, count } = decodeMessage(body, 'query', parameters.columns, maxBatch, 'PIR query');
      counters.queries += count;
      const answers = answerFrom.answer(words, count);
      return send(response, 200, 'application/octet-stream', encodeMessage('answer', answers, count, parameters.rows));
    }
    if (route === 'GET /challenge-hints') {
      challengeHintMessage ??= encodeMessage(
        'challenge-hint',
        answerFrom.challengeHints(Buffer.from(setup.challengeSeed, 'hex')),
        challengeShape.planes * parameters.columns,
        parameters.lweDimension,
      );
      return send(response, 200, 'application/octet-stream', challengeHintMessage);
    }
    if (route === 'POST /challenge') {
      const body = await readBody(request, HEADER_BYTES + parameters.rows * CHALLENGE_ROWS * 4);
      counters.bytesIn += body.length;
      const { words } = decodeMessage(body, 'challenge', CHALLENGE_ROWS, parameters.rows, 'PIR secret challenge');
      if (words.length !== parameters.rows * CHALLENGE_ROWS) {
        throw inputError({ where: 'PIR secret challenge', expected: `${parameters.rows} vectors`, found: words.length / CHALLENGE_ROWS });
      }
      const answers = answerFrom.answerChallenge(words);
      return send(
        response,
        200,
        'application/octet-stream',
        encodeMessage('challenge-answer', answers, challengeShape.planes * parameters.columns, CHALLENGE_ROWS),
      );
    }
    if (route === 'POST /shutdown') {
      send(response, 200, 'text/plain', Buffer.from('stopping'));
      setImmediate(() => void close());
      return;
    }
    send(response, 404, 'text/plain', Buffer.from(`no route ${route}`));
  }
  function armIdleTimer(): void {
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = setTimeout(() => void close(), idleTimeoutMs);
    idleTimer.unref();
  }
  let closing: Promise<void> | undefined;
  function close(): Promise<void> {
    closing ??= new Promise<void>((resolve) => {
      if (idleTimer) clearTimeout(idleTimer);
      http.close(() => {
        resolveStopped();
        resolve();
      });
      http.closeAllConnections();
    });
    return closing;
  }

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, LOOPBACK_HOST, () => resolve());
  });
  armIdleTimer();
  const { port } = http.address() as AddressInfo;
  return { url: `http://${LOOPBACK_HOST}:${port}`, stopped, counters, close };
}

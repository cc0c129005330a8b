import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { candidateListDigest } from '../../src/pir/candidate-digest.js';
import { choosePirParameters } from '../../src/pir/parameters.js';
import { PirServer } from '../../src/pir/pir-server.js';
import { PirVerificationError } from '../../src/pir/pir-verification-error.js';
import { ProviderConnection } from '../../src/pir/provider-connection.js';
import { type ProviderService, startProviderService } from '../../src/pir/provider-service.js';
import { InputError } from '../../src/util/errors.js';

const running: Array<ProviderService | Server> = [];
afterEach(async () => {
  await Promise.all(
    running.splice(0).map((item) => ('stopped' in item ? item.close() : new Promise((resolve) => item.close(resolve)))),
  );
});

/** 2,000 candidates (row numbers as ids) in two groups, decision 1 on every third. */
const groups = Uint8Array.from({ length: 2000 }, (_, i) => i % 2);
const labels = Uint8Array.from({ length: 2000 }, (_, i) => (i % 3 === 0 ? 1 : 0));
const agreed = { entryCount: 2000, entryBits: 1, digest: candidateListDigest(null, groups) };

async function provide(options: { replay?: boolean; candidateDigest?: Uint8Array } = {}): Promise<ProviderService> {
  const server = await PirServer.create(labels, choosePirParameters({ entryCount: 2000, entryBits: 1 }));
  const service = await startProviderService({
    server,
    candidateDigest: options.candidateDigest ?? agreed.digest,
    idleTimeoutMs: 30_000,
    replay: options.replay,
  });
  running.push(service);
  return service;
}

/** A raw request, so the test sets any Host header it likes. */
function rawRequest(url: string, path: string, headers: Record<string, string>, method = 'GET', body?: Buffer) {
  const { port } = new URL(url);
  return new Promise<{ status: number; text: string; headers: Record<string, unknown> }>((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port: Number(port), path, method, headers }, (response) => {
      let text = '';
      response.on('data', (chunk) => {
        text += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text, headers: response.headers }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

describe('startProviderService(options): who may ask', () => {
  test(
    'a request without the token is not read to its end: the connection closes after 64 KiB of its ' + 'body',
    async () => {
      const service = await provide();
      const { port } = new URL(service.url);
      const chunk = Buffer.alloc(64 * 1024);
      const limit = 256 * 2 ** 20; // what a client could send if the body were read to the end
      let sent = 0;
      const ended = await new Promise<string>((resolve) => {
        const request = httpRequest({ host: '127.0.0.1', port: Number(port), path: '/answer', method: 'POST' });
        request.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
        request.on('response', (response) => {
          response.resume();
          response.on('end', () => resolve(`status ${response.statusCode}`));
        });
        const write = () => {
          while (sent < limit) {
            sent += chunk.length;
            if (!request.write(chunk)) {
              request.once('drain', write);
              return;
            }
          }
          request.end();
        };
        write();
      });
      expect(['status 401', 'ECONNRESET', 'EPIPE']).toContain(ended);
      expect(sent).toBeLessThan(limit);
      expect(service.counters.refused).toBe(1);
    },
  );

  test(
    'a request without the token (or with a wrong one) gets 401 and the service keeps running; /shutdown ' + 'too',
    async () => {
      const service = await provide();
      const missing = await fetch(`${service.url}/setup`);
      expect(missing.status).toBe(401);
      expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="fairaudit-pir"');
      expect(await missing.text()).toBe('expected the bearer token of this provider (Authorization: Bearer TOKEN)');
      const wrong = await fetch(`${service.url}/setup`, { headers: { authorization: `Bearer ${'0'.repeat(64)}` } });
      expect(wrong.status).toBe(401);
      const shutdown = await fetch(`${service.url}/shutdown`, { method: 'POST' });
      expect(shutdown.status).toBe(401);
      await new Promise((resolve) => setTimeout(resolve, 50));
      const ok = await fetch(`${service.url}/setup`, { headers: { authorization: `Bearer ${service.token}` } });
      expect(ok.status).toBe(200);
      expect(JSON.parse(await ok.text()).protocol).toBe('fairaudit-pir/3');
      expect(service.counters.refused).toBe(3);
      const connection = await ProviderConnection.connect(service, agreed);
      expect(await connection.retrieve([0, 1, 2, 3])).toEqual([1, 0, 0, 1]);
    },
  );

  test(
    'a Host header that does not name the loopback service gets 403, even with the token (DNS ' + 'rebinding)',
    async () => {
      const service = await provide();
      const port = new URL(service.url).port;
      const authorization = `Bearer ${service.token}`;
      const rebound = await rawRequest(service.url, '/setup', { host: `evil.example:${port}`, authorization });
      expect(rebound.status).toBe(403);
      expect(rebound.text).toBe(
        `Host header: expected 127.0.0.1:${port} or localhost:${port}, found "evil.example:${port}"`,
      );
      expect((await rawRequest(service.url, '/setup', { host: `localhost:${port}`, authorization })).status).toBe(200);
    },
  );

  test('request bodies are capped: a commit request over 4 KiB is refused (400) without being read whole', async () => {
    const service = await provide();
    const port = new URL(service.url).port;
    const big = Buffer.alloc(1 << 20, 0x20);
    const refused = await rawRequest(
      service.url,
      '/commit',
      { host: `127.0.0.1:${port}`, authorization: `Bearer ${service.token}`, 'content-length': String(big.length) },
      'POST',
      big,
    );
    expect(refused.status).toBe(400);
    expect(refused.text).toBe('PIR commit request: expected at most 4096 bytes, found "1048576 bytes"');
  });

  test(
    'the hint and proof exist only after POST /commit with a nonce (409 before), and a malformed nonce is ' + '400',
    async () => {
      const service = await provide();
      const headers = { authorization: `Bearer ${service.token}` };
      const early = await fetch(`${service.url}/hint`, { headers });
      expect(early.status).toBe(409);
      expect(await early.text()).toBe('no commitment for this audit: POST /commit with its nonce first');
      const bad = await fetch(`${service.url}/commit`, { method: 'POST', headers, body: '{"nonce": "00"}' });
      expect(bad.status).toBe(400);
    },
  );
});

describe('ProviderConnection.connect(endpoint, candidates): a binding, fresh commitment', () => {
  test('two audits of one provider get different nonces, shares and public seeds, and both verify', async () => {
    const service = await provide();
    const first = await ProviderConnection.connect(service, agreed);
    const second = await ProviderConnection.connect(service, agreed);
    expect(Buffer.from(first.binding.auditorNonce).equals(Buffer.from(second.binding.auditorNonce))).toBe(false);
    expect(Buffer.from(first.binding.providerShare).equals(Buffer.from(second.binding.providerShare))).toBe(false);
    expect(Buffer.from(first.client.seed).equals(Buffer.from(second.client.seed))).toBe(false);
    expect(service.counters.commitments).toBe(2);
  });

  test(
    "a replayed transcript of an earlier audit is caught: the provider's old hint and proof fail Z·A = C·H " +
      'under the new nonce',
    async () => {
      const service = await provide({ replay: true });
      const first = await ProviderConnection.connect(service, agreed);
      expect(first.client.secretChallenge).toBe(true);
      const replayed = ProviderConnection.connect(service, agreed);
      await expect(replayed).rejects.toThrow(PirVerificationError);
      await expect(ProviderConnection.connect(service, agreed)).rejects.toThrow(
        /commitment: Z·A ≠ C·H .*made for another audit/,
      );
      expect(service.counters.commitments).toBe(1);
    },
  );

  test(
    'a changed candidate order is caught: a provider whose list is in another order is rejected before any ' + 'query',
    async () => {
      const reversed = Int32Array.from({ length: 2000 }, (_, i) => 1999 - i);
      const service = await provide({ candidateDigest: candidateListDigest(reversed, groups.slice().reverse()) });
      await expect(ProviderConnection.connect(service, agreed)).rejects.toThrow(
        new RegExp(
          "^candidate list: the provider commits to a list with digest [0-9a-f]{64}, the auditor's " +
            String.raw`list \(ids and groups in the agreed order\) has digest [0-9a-f]{64}$`,
        ),
      );
      expect(service.counters.commitments).toBe(0);
    },
  );

  test(
    'labelsRevealed() is N before any answer (the hint determines D); one answer decrypts its whole ' + 'column',
    async () => {
      const service = await provide();
      const connection = await ProviderConnection.connect(service, agreed);
      const { rows, entriesPerElement, entryCount } = connection.parameters;
      expect(connection.labelsRevealed()).toBe(entryCount);
      expect(connection.labelsRevealedByAnswers()).toBe(0);
      await connection.retrieve([0]);
      expect(connection.labelsRevealedByAnswers()).toBe(rows * entriesPerElement);
      await connection.retrieve([1]); // the same column
      expect(connection.labelsRevealedByAnswers()).toBe(rows * entriesPerElement);
      expect(connection.hintRevealsAllLabels()).toBe(true);
    },
  );

  test(
    'a wrong token is InputError (exit 2: the user holds the wrong provider file), not a provider ' + 'rejection',
    async () => {
      const service = await provide();
      const attempt = ProviderConnection.connect({ url: service.url, token: 'f'.repeat(64) }, agreed);
      await expect(attempt).rejects.toThrow(InputError);
      await expect(attempt).rejects.toThrow(/HTTP 401/);
    },
  );
});

describe('ProviderConnection.connect: responses are capped (the provider is the adversary)', () => {
  async function rogue(handler: Parameters<typeof createServer>[1]): Promise<string> {
    const server = createServer(handler);
    running.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  test('a setup announced at 10 MB is refused without reading it', async () => {
    const url = await rogue((_, response) => {
      response.writeHead(200, { 'content-length': 10_000_000 });
      response.write(Buffer.alloc(65_536));
    });
    await expect(ProviderConnection.connect({ url, token: 'a'.repeat(64) }, agreed)).rejects.toThrow(
      'provider setup: expected at most 4096 bytes, the provider announced 10000000',
    );
  });

  test('a setup streamed without a length is cut off past 4 KiB', async () => {
    const url = await rogue((_, response) => {
      response.writeHead(200, { 'transfer-encoding': 'chunked' });
      const timer = setInterval(() => response.write(Buffer.alloc(1024, 0x7b)), 1);
      response.on('close', () => clearInterval(timer));
    });
    await expect(ProviderConnection.connect({ url, token: 'a'.repeat(64) }, agreed)).rejects.toThrow(
      'provider setup: expected at most 4096 bytes, received more',
    );
  });
});

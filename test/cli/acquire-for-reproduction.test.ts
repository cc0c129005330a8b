import { existsSync, mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { acquireForReproduction } from '../../src/cli/acquire-for-reproduction.js';
import { OFFLINE_VARIABLE } from '../../src/data/acquire-datasets.js';
import { adultFixture, writeAdultManifest } from '../fixtures/adult-fixture.js';

const fixture = adultFixture(200, 4);
const hits: string[] = [];
let server: Server;
let base = '';

beforeAll(async () => {
  // A local server on 127.0.0.1 only: the tests never reach any other address.
  server = createServer((request, response) => {
    hits.push(`${request.method} ${request.url}`);
    const body = ({ '/adult.data': fixture.data, '/adult.test': fixture.test } as Record<string, string>)[
      request.url ?? ''
    ];
    if (body === undefined) return void response.writeHead(404).end('not found');
    response.writeHead(200, { 'content-length': Buffer.byteLength(body) });
    response.end(request.method === 'HEAD' ? undefined : body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
const savedOffline = process.env[OFFLINE_VARIABLE];
afterEach(() => {
  if (savedOffline === undefined) delete process.env[OFFLINE_VARIABLE];
  else process.env[OFFLINE_VARIABLE] = savedOffline;
});

/** A manifest folder whose adult.json points at `origin`, and an empty downloads folder. */
function space(origin: string) {
  const root = mkdtempSync(join(tmpdir(), 'fairaudit-reproduce-fetch-'));
  const manifestDirectory = join(root, 'manifests');
  writeAdultManifest(manifestDirectory, fixture, { data: [`${origin}/adult.data`], test: [`${origin}/adult.test`] });
  return { manifestDirectory, downloadsDirectory: join(root, 'downloads'), dataDirectory: root };
}

/** A port nothing listens on (opened, read, closed). */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe('acquireForReproduction(datasets, options, write): what reproduce says on stderr about data', () => {
  it('downloads a missing dataset, a line per file and one for the dataset, and no notice', async () => {
    const where = space(base);
    const lines: string[] = [];
    const result = await acquireForReproduction(['adult'], where, (text) => lines.push(text));
    expect(result.fetched).toEqual(['adult']);
    expect(existsSync(join(where.downloadsDirectory, 'adult', 'adult.test'))).toBe(true);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe(
      `fetching adult: adult.data (${(Buffer.byteLength(fixture.data) / 1e6).toFixed(1)} MB) from ${base}/adult.data\n`,
    );
    expect(lines[1]).toMatch(/^fetching adult: adult\.test /);
    expect(lines[2]).toMatch(/^fetched adult into .*\/adult\/ \(sizes and sha256 verified\)\n$/);
    // --quiet: the same download, nothing written.
    const quiet: string[] = [];
    expect(
      (await acquireForReproduction(['adult'], { ...space(base), quiet: true }, (text) => quiet.push(text))).fetched,
    ).toEqual(['adult']);
    expect(quiet).toEqual([]);
  });

  it('without network writes exactly one line naming what it could not fetch and the calibrated default', async () => {
    const port = await closedPort();
    const lines: string[] = [];
    const started = performance.now();
    await acquireForReproduction(['adult'], space(`http://127.0.0.1:${port}`), (text) => lines.push(text));
    expect(performance.now() - started).toBeLessThan(3000);
    expect(lines).toEqual([
      `could not fetch adult (network unreachable (127.0.0.1:${port}: ECONNREFUSED)): outputs that need them use ` +
        `the calibrated default or are listed as unavailable\n`,
    ]);
  });

  it(
    'offline (the flag or FAIRAUDIT_OFFLINE=1) asks nothing of the network and still writes its one line, even ' +
      'when quiet',
    async () => {
      hits.length = 0;
      const flag: string[] = [];
      await acquireForReproduction(['adult'], { ...space(base), offline: true, quiet: true }, (text) =>
        flag.push(text),
      );
      process.env[OFFLINE_VARIABLE] = '1';
      const variable: string[] = [];
      await acquireForReproduction(['adult'], space(base), (text) => variable.push(text));
      expect(hits).toEqual([]);
      const line =
        'could not fetch adult (offline (--offline or FAIRAUDIT_OFFLINE=1)): outputs that need them use the ' +
        'calibrated default or are listed as unavailable\n';
      expect(flag).toEqual([line]);
      expect(variable).toEqual([line]);
    },
  );

  it('writes nothing and asks nothing when the dataset is already there', async () => {
    const where = space(base);
    await acquireForReproduction(['adult'], { ...where, quiet: true }, () => {});
    hits.length = 0;
    const lines: string[] = [];
    expect((await acquireForReproduction(['adult'], where, (text) => lines.push(text))).present).toEqual(['adult']);
    expect(lines).toEqual([]);
    expect(hits).toEqual([]);
  });
});

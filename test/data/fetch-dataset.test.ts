import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DownloadProgress, fetchDataset } from '../../src/data/fetch-dataset.js';
import { loadDataset } from '../../src/data/load-dataset.js';
import { InputError } from '../../src/util/errors.js';
import { adultFixture, writeAdultManifest } from '../fixtures/adult-fixture.js';

const fixture = adultFixture(300, 9);
let server: Server;
let base = '';
const hits: string[] = [];

beforeAll(async () => {
  // A local HTTP server: /adult.data and /adult.test as generated, /corrupt.data with one
  // byte changed, /missing gives 404. There is no internet here, and tests must not need it.
  server = createServer((request, response) => {
    hits.push(request.url ?? '');
    const bodies: Record<string, string> = {
      '/adult.data': fixture.data,
      '/adult.test': fixture.test,
      '/corrupt.data': `${fixture.data.slice(0, -3)}X\n\n`,
    };
    const body = bodies[request.url ?? ''];
    if (body === undefined) {
      response.writeHead(404).end('not found');
      return;
    }
    response.writeHead(200, { 'content-length': Buffer.byteLength(body) });
    // two chunks, so progress is reported more than once
    const half = Math.floor(body.length / 2);
    response.write(body.slice(0, half));
    setTimeout(() => response.end(body.slice(half)), 5);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function space(urls: { data: string[]; test: string[] }) {
  const root = mkdtempSync(join(tmpdir(), 'fairaudit-fetch-'));
  const manifests = join(root, 'manifests');
  const downloads = join(root, 'downloads');
  writeAdultManifest(manifests, fixture, urls);
  return { manifests, downloads };
}

describe('fetchDataset(name, options) against a local HTTP server', () => {
  it(
    'fetchDataset("adult") downloads, verifies, reports progress, and loadDataset then reads ' + 'data/downloads',
    async () => {
      const { manifests, downloads } = space({ data: [`${base}/adult.data`], test: [`${base}/adult.test`] });
      const progress: DownloadProgress[] = [];
      const files = await fetchDataset('adult', {
        manifestDirectory: manifests,
        downloadsDirectory: downloads,
        onProgress: (p) => progress.push(p),
      });
      expect(files.map((file) => [file.name, file.action, file.check])).toEqual([
        ['adult.data', 'downloaded', 'verified'],
        ['adult.test', 'downloaded', 'verified'],
      ]);
      expect(readFileSync(join(downloads, 'adult', 'adult.data'), 'utf8')).toBe(fixture.data);
      const dataProgress = progress.filter((p) => p.file === 'adult.data');
      expect(dataProgress.length).toBeGreaterThanOrEqual(2);
      expect(dataProgress.at(-1)?.receivedBytes).toBe(Buffer.byteLength(fixture.data));
      expect(dataProgress.at(-1)?.totalBytes).toBe(Buffer.byteLength(fixture.data));
      const emptyMirror = mkdtempSync(join(tmpdir(), 'fairaudit-empty-'));
      const table = await loadDataset('adult', {
        dataDirectory: emptyMirror,
        manifestDirectory: manifests,
        downloadsDirectory: downloads,
      });
      expect(table.rows).toBe(fixture.completeRows);
    },
  );

  it('fetchDataset keeps a verified copy and downloads nothing the second time', async () => {
    const { manifests, downloads } = space({ data: [`${base}/adult.data`], test: [`${base}/adult.test`] });
    await fetchDataset('adult', { manifestDirectory: manifests, downloadsDirectory: downloads });
    const before = hits.length;
    const again = await fetchDataset('adult', { manifestDirectory: manifests, downloadsDirectory: downloads });
    expect(again.map((file) => file.action)).toEqual(['already present', 'already present']);
    expect(hits.length).toBe(before);
  });

  it('fetchDataset tries the next URL after a 404 or a checksum mismatch', async () => {
    const { manifests, downloads } = space({
      data: [`${base}/missing`, `${base}/corrupt.data`, `${base}/adult.data`],
      test: [`${base}/adult.test`],
    });
    const files = await fetchDataset('adult', { manifestDirectory: manifests, downloadsDirectory: downloads });
    expect(files[0].url).toBe(`${base}/adult.data`);
  });

  it('fetchDataset throws InputError naming each URL when a checksum never matches, and stores nothing', async () => {
    const { manifests, downloads } = space({
      data: [`${base}/corrupt.data`, `${base}/missing`],
      test: [`${base}/adult.test`],
    });
    const error = await fetchDataset('adult', { manifestDirectory: manifests, downloadsDirectory: downloads }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InputError);
    const message = (error as Error).message;
    expect(message).toContain(`${base}/corrupt.data: expected sha256`);
    expect(message).toContain(`${base}/missing: expected HTTP 200, found "HTTP 404 Not Found"`);
    expect(message).toMatch(/--data-dir DIR or FAIRAUDIT_DATA_DIR=DIR/);
    expect(existsSync(join(downloads, 'adult', 'adult.data'))).toBe(false);
    expect(readdirSync(join(downloads, 'adult')).filter((name) => name.endsWith('.part'))).toEqual([]);
  });

  it('fetchDataset replaces a corrupt copy in data/downloads', async () => {
    const { manifests, downloads } = space({ data: [`${base}/adult.data`], test: [`${base}/adult.test`] });
    await fetchDataset('adult', { manifestDirectory: manifests, downloadsDirectory: downloads });
    writeFileSync(join(downloads, 'adult', 'adult.data'), 'garbage');
    const files = await fetchDataset('adult', { manifestDirectory: manifests, downloadsDirectory: downloads });
    expect(files[0].action).toBe('downloaded');
    expect(readFileSync(join(downloads, 'adult', 'adult.data'), 'utf8')).toBe(fixture.data);
  });

  it('fetchDataset reports an unreachable server as InputError', async () => {
    const { manifests, downloads } = space({ data: ['http://127.0.0.1:9/adult.data'], test: [`${base}/adult.test`] });
    await expect(
      fetchDataset('adult', { manifestDirectory: manifests, downloadsDirectory: downloads }),
    ).rejects.toThrow(/could not download adult\.data[\s\S]*127\.0\.0\.1:9/);
  });
});

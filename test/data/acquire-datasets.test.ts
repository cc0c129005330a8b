import { mkdtempSync, readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  acquireDatasets,
  acquisitionNotice,
  isOfflineRequested,
  OFFLINE_VARIABLE,
  probeNetwork,
  verifiedForm,
} from '../../src/data/acquire-datasets.js';
import { loadDataset } from '../../src/data/load-dataset.js';
import { readManifest } from '../../src/data/manifest.js';
import { InputError } from '../../src/util/errors.js';
import { adultFixture, sha256OfText, writeAdultManifest } from '../fixtures/adult-fixture.js';

const fixture = adultFixture(300, 9);
/** Served as /corrupt.test: as long as adult.test, one byte changed, so only the sha256 tells. */
const corrupt = `${fixture.test.slice(0, -2)}X\n`;
const hits: string[] = [];
let server: Server; // answers /adult.data and /adult.test, 404 elsewhere
let silent: Server; // accepts connections and never answers
let base = '';
let silentBase = '';

beforeAll(async () => {
  // Local servers on 127.0.0.1 only: the tests never reach any other address.
  server = createServer((request, response) => {
    hits.push(`${request.method} ${request.url}`);
    const body = (
      { '/adult.data': fixture.data, '/adult.test': fixture.test, '/corrupt.test': corrupt } as Record<string, string>
    )[request.url ?? ''];
    if (body === undefined) return void response.writeHead(404).end('not found');
    response.writeHead(200, { 'content-length': Buffer.byteLength(body) });
    response.end(request.method === 'HEAD' ? undefined : body);
  });
  silent = createServer(() => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  silentBase = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
});
afterAll(async () => {
  silent.closeAllConnections();
  await Promise.all([server, silent].map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
});
const savedOffline = process.env[OFFLINE_VARIABLE];
afterEach(() => {
  if (savedOffline === undefined) delete process.env[OFFLINE_VARIABLE];
  else process.env[OFFLINE_VARIABLE] = savedOffline;
});

/** A manifest folder whose adult.json points at `origin`, and empty downloads. */
function space(origin: string) {
  const root = mkdtempSync(join(tmpdir(), 'fairaudit-acquire-'));
  const manifestDirectory = join(root, 'manifests');
  writeAdultManifest(manifestDirectory, fixture, { data: [`${origin}/adult.data`], test: [`${origin}/adult.test`] });
  return { manifestDirectory, downloadsDirectory: join(root, 'downloads'), dataDirectory: join(root) };
}

describe('acquireDatasets(names, options) against local servers', () => {
  it(
    'downloads a missing dataset after one HEAD probe, checksums verified and progress reported; loadDataset ' +
      'then reads it',
    async () => {
      const where = space(base);
      hits.length = 0;
      const progress: string[] = [];
      const result = await acquireDatasets(['adult'], {
        ...where,
        onProgress: (dataset, p) => progress.push(`${dataset}/${p.file}`),
      });
      expect(result).toEqual({ present: [], fetched: ['adult'], unavailable: [], network: 'reachable' });
      expect(hits).toEqual(['HEAD /adult.data', 'GET /adult.data', 'GET /adult.test']);
      expect(progress).toContain('adult/adult.data');
      expect((await loadDataset('adult', where)).rows).toBeGreaterThan(0);
      // Present now: no probe, no download.
      hits.length = 0;
      expect(await acquireDatasets(['adult'], where)).toEqual({
        present: ['adult'],
        fetched: [],
        unavailable: [],
        network: 'skipped',
      });
      expect(hits).toEqual([]);
    },
  );

  it('with offline (or FAIRAUDIT_OFFLINE=1) asks nothing of the network and says so', async () => {
    hits.length = 0;
    const offline = await acquireDatasets(['adult'], { ...space(base), offline: true });
    expect(offline.network).toBe('offline');
    expect(offline.unavailable).toEqual([{ name: 'adult', reason: 'offline (--offline or FAIRAUDIT_OFFLINE=1)' }]);
    process.env[OFFLINE_VARIABLE] = '1';
    expect((await acquireDatasets(['adult'], space(base))).network).toBe('offline');
    expect(hits).toEqual([]);
    expect(acquisitionNotice(offline)).toBe(
      'could not fetch adult (offline (--offline or FAIRAUDIT_OFFLINE=1)): outputs that need them use the ' +
        'calibrated default or are listed as unavailable',
    );
  });

  it(
    'gives up after the probe timeout when a server never answers (it cannot hang), and when nothing ' + 'listens',
    async () => {
      const started = performance.now();
      const hung = await acquireDatasets(['adult'], { ...space(silentBase), probeTimeoutMs: 300 });
      expect(performance.now() - started).toBeLessThan(5000);
      expect(hung.network).toBe('unreachable');
      expect(hung.unavailable[0].reason).toMatch(/^network unreachable \(127\.0\.0\.1:\d+: no answer within 300 ms\)$/);
      // A port nothing listens on: the probe fails at once.
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const port = (closed.address() as AddressInfo).port;
      await new Promise<void>((resolve) => closed.close(() => resolve()));
      const refused = await acquireDatasets(['adult'], space(`http://127.0.0.1:${port}`));
      expect(refused.unavailable[0].reason).toMatch(/network unreachable \(127\.0\.0\.1:\d+: ECONNREFUSED\)/);
    },
  );

  it('abandons a download that stalls (idle timeout) and reports it, keeping nothing', async () => {
    // The probe's HEAD reaches the good server; the files come from the silent one.
    const root = mkdtempSync(join(tmpdir(), 'fairaudit-acquire-stall-'));
    const manifestDirectory = join(root, 'manifests');
    writeAdultManifest(manifestDirectory, fixture, {
      data: [`${base}/adult.data`],
      test: [`${silentBase}/adult.test`],
    });
    const downloadsDirectory = join(root, 'downloads');
    const result = await acquireDatasets(['adult'], {
      manifestDirectory,
      downloadsDirectory,
      dataDirectory: root,
      idleTimeoutMs: 300,
    });
    expect(result.fetched).toEqual([]);
    expect(result.unavailable[0].reason).toMatch(/could not download adult\.test/);
    expect(readdirSync(join(downloadsDirectory, 'adult'))).toEqual(['adult.data']); // no partial adult.test
  });

  it(
    'refuses a file whose sha256 differs from the manifest: reason given, nothing half-written, the dataset ' +
      'still missing',
    async () => {
      const root = mkdtempSync(join(tmpdir(), 'fairaudit-acquire-corrupt-'));
      const manifestDirectory = join(root, 'manifests');
      writeAdultManifest(manifestDirectory, fixture, { data: [`${base}/adult.data`], test: [`${base}/corrupt.test`] });
      const where = { manifestDirectory, downloadsDirectory: join(root, 'downloads'), dataDirectory: root };
      const result = await acquireDatasets(['adult'], where);
      expect(result.fetched).toEqual([]);
      expect(result.network).toBe('reachable');
      expect(result.unavailable).toHaveLength(1);
      expect(result.unavailable[0].reason).toBe(
        `could not download adult.test of dataset "adult": ${base}/corrupt.test: expected ` +
          `sha256 ${sha256OfText(fixture.test)} (the manifest's checksum of adult.test), found ` +
          `"${sha256OfText(corrupt)}"`,
      );
      expect(readdirSync(join(where.downloadsDirectory, 'adult'))).toEqual(['adult.data']); // no adult.test, no .part
      await expect(loadDataset('adult', where)).rejects.toThrow(InputError);
      expect(acquisitionNotice(result)).toMatch(
        new RegExp(
          String.raw`^could not fetch adult \(could not download adult\.test .*\): outputs that need them ` +
            'use the calibrated default',
        ),
      );
    },
  );

  it('throws InputError for an unknown dataset name', async () => {
    await expect(acquireDatasets(['nope'], space(base))).rejects.toThrow(InputError);
  });
});

describe('verifiedForm(forms), probeNetwork(url, timeoutMs), isOfflineRequested(flag)', () => {
  it('fetches unattended only forms whose every file has a URL and a sha256 (data/*.json)', () => {
    expect(verifiedForm(readManifest('adult').forms)?.name).toBe('uci');
    expect(verifiedForm(readManifest('ccd').forms)?.name).toBe('csv-two-headers');
    expect(verifiedForm(readManifest('compas').forms)?.name).toBe('propublica-raw');
    // ACS: the Census files have no published checksum; the folktables numpy export has one.
    expect(verifiedForm(readManifest('acs-income').forms)?.name).toBe('folktables-numpy-gz');
    expect(verifiedForm(readManifest('hateday').forms)).toBeNull();
  });

  it('probeNetwork says reachable for any HTTP answer, a 404 included', async () => {
    expect(await probeNetwork(`${base}/nothing-here`, 2000)).toEqual({ reachable: true, detail: 'HTTP 404' });
  });

  it('isOfflineRequested reads the flag, then FAIRAUDIT_OFFLINE (1, true, yes)', () => {
    delete process.env[OFFLINE_VARIABLE];
    expect(isOfflineRequested(undefined)).toBe(false);
    expect(isOfflineRequested(true)).toBe(true);
    for (const value of ['1', 'TRUE', 'yes']) {
      process.env[OFFLINE_VARIABLE] = value;
      expect(isOfflineRequested(false), value).toBe(true);
    }
    process.env[OFFLINE_VARIABLE] = '0';
    expect(isOfflineRequested(undefined)).toBe(false);
  });
});

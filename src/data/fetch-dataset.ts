import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { InputError, inputError } from '../util/errors.js';
import { type DataLocationOptions, downloadsRoot } from './data-locations.js';
import type { SourceFile } from './dataset-table.js';
import { type DatasetManifest, type ManifestFile, type ManifestForm, readManifest } from './manifest.js';
import { datasetDefinition } from './registry.js';
import { verifyFile } from './verify-file.js';

/** Progress of one file's download, reported to a callback (the CLI draws a bar). */
export interface DownloadProgress {
  readonly file: string;
  readonly url: string;
  readonly receivedBytes: number;
  /** From the manifest or the Content-Length header; null when neither says. */
  readonly totalBytes: number | null;
}

export interface FetchOptions extends DataLocationOptions {
  /** The form to download (default: the first readable form whose files all have URLs). */
  readonly form?: string;
  /** Download again even when a verified copy is already there. */
  readonly force?: boolean;
  readonly onProgress?: (progress: DownloadProgress) => void;
  /** Abandon a URL that sends nothing (no headers, no bytes) for this long (default 30000 ms; then the next URL is
   * tried). */
  readonly idleTimeoutMs?: number;
}

/** What fetchDataset did with one file. */
export interface FetchedFile extends SourceFile {
  readonly action: 'downloaded' | 'already present';
  readonly url: string | null;
}

/** downloadableForm(manifest, name) picks the form to fetch, or throws InputError saying why none can be. */
export function downloadableForm(manifest: DatasetManifest, requested?: string): ManifestForm {
  const canDownload = (form: ManifestForm) =>
    form.readable !== false && form.files.every((file) => file.optional === true || file.urls.length > 0);
  if (requested !== undefined) {
    const form = manifest.forms.find((candidate) => candidate.name === requested);
    if (form === undefined) {
      throw inputError({
        where: '--form',
        expected: `a form of ${manifest.name}: ${manifest.forms.map((f) => f.name).join(', ')}`,
        found: requested,
      });
    }
    if (!canDownload(form))
      throw inputError({ where: '--form', expected: 'a form fairaudit can download and read', found: requested });
    return form;
  }
  const form = manifest.forms.find(canDownload);
  if (form === undefined) {
    throw new InputError(
      `dataset "${manifest.name}": no form of it can be downloaded unattended. ${manifest.note ?? ''} ` +
        `Download it yourself (see ${manifest.homepage}) and point --data-dir or FAIRAUDIT_DATA_DIR at it.`,
    );
  }
  return form;
}

/**
 * downloadFile(url, expected, target, onProgress, idleTimeoutMs) streams one URL to a
 * temporary file beside `target`, hashing as it goes, checks size and sha256 against the
 * manifest, and renames it into place only when they match (or when the manifest has no
 * checksum). A server silent for idleTimeoutMs (before the headers or between chunks) is
 * abandoned. Returns the sha256. Throws InputError on an HTTP error or a mismatch, and
 * the abort error on silence (the temporary file is removed). O(file size).
 */
async function downloadFile(
  url: string,
  expected: ManifestFile,
  target: string,
  onProgress: ((progress: DownloadProgress) => void) | undefined,
  idleTimeoutMs: number,
): Promise<string> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const stillAlive = () => {
    clearTimeout(timer);
    timer = setTimeout(() => controller.abort(new Error(`no data for ${idleTimeoutMs} ms`)), idleTimeoutMs);
  };
  stillAlive();
  try {
    return await streamToFile(url, expected, target, onProgress, controller.signal, stillAlive);
  } finally {
    clearTimeout(timer);
  }
}

async function streamToFile(
  url: string,
  expected: ManifestFile,
  target: string,
  onProgress: ((progress: DownloadProgress) => void) | undefined,
  signal: AbortSignal,
  stillAlive: () => void,
): Promise<string> {
  const response = await fetch(url, { redirect: 'follow', signal });
  if (!response.ok || response.body === null) {
    throw inputError({ where: url, expected: 'HTTP 200', found: `HTTP ${response.status} ${response.statusText}` });
  }
  const header = response.headers.get('content-length');
  const totalBytes = expected.size ?? (header === null ? null : Number(header));
  const temporary = `${target}.${randomBytes(6).toString('hex')}.part`;
  const hash = createHash('sha256');
  let receivedBytes = 0;
  const output = createWriteStream(temporary);
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      stillAlive();
      hash.update(chunk);
      receivedBytes += chunk.length;
      if (!output.write(chunk)) await new Promise<void>((resolve) => output.once('drain', () => resolve()));
      onProgress?.({ file: expected.name, url, receivedBytes, totalBytes });
    }
    await new Promise<void>((resolve, reject) =>
      output.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
    const sha256 = hash.digest('hex');
    if (expected.size !== null && receivedBytes !== expected.size) {
      throw inputError({
        where: url,
        expected: `${expected.size} bytes (the manifest's size of ${expected.name})`,
        found: `${receivedBytes} bytes`,
      });
    }
    if (expected.sha256 !== null && sha256 !== expected.sha256) {
      throw inputError({
        where: url,
        expected: `sha256 ${expected.sha256} (the manifest's checksum of ${expected.name})`,
        found: sha256,
      });
    }
    renameSync(temporary, target);
    return sha256;
  } catch (error) {
    output.destroy();
    rmSync(temporary, { force: true });
    throw error;
  }
}

/**
 * fetchDataset(name, options) downloads a dataset's files into data/downloads/NAME/
 * (or options.downloadsDirectory/NAME/), trying each URL of a file in turn, verifying
 * size and sha256 on the fly and storing each file atomically. Files already there
 * that verify are kept. A file whose manifest has no checksum is stored and reported
 * with check "unknown" and its computed sha256.
 *
 * Throws InputError when the dataset or form is unknown or not downloadable, or when
 * every URL of a file fails (an HTTP error, no network, a size or checksum mismatch),
 * naming each URL and its failure. O(total download size).
 */
export async function fetchDataset(name: string, options: FetchOptions = {}): Promise<FetchedFile[]> {
  const definition = datasetDefinition(name);
  const manifest = readManifest(definition.name, options.manifestDirectory);
  const form = downloadableForm(manifest, options.form);
  const folder = join(downloadsRoot(options), manifest.name);
  mkdirSync(folder, { recursive: true });
  const results: FetchedFile[] = [];
  for (const file of form.files) {
    if (file.urls.length === 0) continue; // an optional file without a URL
    const target = join(folder, file.name);
    if (!options.force && existsSync(target)) {
      try {
        const present = await verifyFile(target, file);
        results.push({ ...present, action: 'already present', url: null });
        continue;
      } catch {
        // a stale or corrupt copy: download it again
      }
    }
    const failures: string[] = [];
    let done = false;
    for (const url of file.urls) {
      try {
        const sha256 = await downloadFile(url, file, target, options.onProgress, options.idleTimeoutMs ?? 30_000);
        const stored = await verifyFile(target, file);
        results.push({ ...stored, sha256, action: 'downloaded', url });
        done = true;
        break;
      } catch (error) {
        const cause = (error as { cause?: { message?: string } }).cause?.message;
        const message = (error as Error).message;
        const named = message.startsWith(`${url}:`) ? message : `${url}: ${message}`; // an HTTP or checksum error names
        // the URL already
        failures.push(`  ${named}${cause ? ` (${cause})` : ''}`);
      }
    }
    if (!done) {
      throw new InputError(
        `could not download ${file.name} of dataset "${manifest.name}":\n${failures.join('\n')}\n` +
          `Alternatively, put the file in a local mirror and use --data-dir DIR or FAIRAUDIT_DATA_DIR=DIR.`,
      );
    }
  }
  return results;
}

import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { writeFileAtomic } from '../util/atomic-write.js';
import { inputError } from '../util/errors.js';
import type { ProviderEndpoint } from './provider-connection.js';

/** The format tag of a provider file. */
export const PROVIDER_FILE_FORMAT = 'fairaudit-pir-provider/1';

/** The largest provider file read (it holds a URL and a 64-digit token). */
const MAX_PROVIDER_FILE_BYTES = 4096;

/**
 * writeProviderFile(path, endpoint) writes {"format", "url", "token"} as JSON, created
 * with mode 0600 (owner read/write only) and renamed into place (writeFileAtomic), so
 * the token is never readable by another user, not even for a moment. Throws what the
 * write throws (the caller names the flag).
 * @param path the file to write (mode 0600)
 * @param endpoint the provider's address and token
 * @example
 * writeProviderFile('provider.json', { url: service.url, token: service.token });
 */
export function writeProviderFile(path: string, endpoint: ProviderEndpoint): void {
  writeFileAtomic(
    path,
    `${JSON.stringify({ format: PROVIDER_FILE_FORMAT, url: endpoint.url, token: endpoint.token })}\n`,
    { mode: 0o600 },
  );
}

/** What readProviderFile found: the endpoint and the file's permission bits. */
export interface ProviderFile extends ProviderEndpoint {
  /** The file's mode & 0o777 (0o600 as pir serve writes it; the CLI warns when others may read it). */
  readonly mode: number;
}

/**
 * readProviderFile(path, where) reads a file written by writeProviderFile (at most
 * 4 KiB of a regular file). Throws InputError naming `where` and the path for a missing,
 * oversized or malformed file. O(1).
 * @param path the provider file
 * @param where names the file in messages (a flag)
 * @returns the provider's address and token
 * @example
 * const endpoint = readProviderFile('provider.json', '--provider');
 */
export function readProviderFile(path: string, where: string): ProviderFile {
  let text: string;
  let mode: number;
  try {
    // O_NONBLOCK: a FIFO (or another device) opens at once instead of waiting for a writer, and is refused below.
    const descriptor = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const stats = fstatSync(descriptor);
      if (!stats.isFile() || stats.size > MAX_PROVIDER_FILE_BYTES) {
        throw inputError({
          where: `${where} ${path}`,
          expected: `a provider file of at most ${MAX_PROVIDER_FILE_BYTES} bytes`,
          found: stats.isFile() ? `${stats.size} bytes` : 'not a regular file',
        });
      }
      const buffer = Buffer.alloc(MAX_PROVIDER_FILE_BYTES);
      const length = readSync(descriptor, buffer, 0, MAX_PROVIDER_FILE_BYTES, 0);
      text = buffer.subarray(0, length).toString('utf8');
      mode = stats.mode & 0o777;
    } finally {
      closeSync(descriptor);
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === undefined) throw error;
    throw inputError({ where: `${where} ${path}`, expected: "the file 'pir serve --url-file' wrote", found: code });
  }
  let parsed: Record<string, unknown> | null = null;
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    parsed = null;
  }
  if (
    parsed === null ||
    typeof parsed !== 'object' ||
    parsed.format !== PROVIDER_FILE_FORMAT ||
    typeof parsed.url !== 'string' ||
    typeof parsed.token !== 'string' ||
    !/^[0-9a-f]{64}$/.test(parsed.token)
  ) {
    throw inputError({
      where: `${where} ${path}`,
      expected:
        `{"format": "${PROVIDER_FILE_FORMAT}", "url": ..., "token": 64 hex digits} as 'pir serve ` +
        `--url-file' writes it`,
      found: text
        .trim()
        .slice(0, 80)
        .replace(/[0-9a-f]{64}/g, '<token>'),
    });
  }
  return { url: parsed.url, token: parsed.token, mode };
}

import { createHash } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import { InputError } from '../util/errors.js';
import type { SourceFile } from './dataset-table.js';
import type { ManifestFile } from './manifest.js';

/** sha256OfFile(path) hashes a file by streaming it. O(file size). */
export async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * verifyFile(path, expected, verify) checks a dataset file against its manifest entry:
 * the size first (cheap), then the sha256. A file whose manifest has no checksum is
 * hashed and marked "unknown" so the user sees it was not verified. With verify false
 * nothing is hashed and the file is marked "unknown".
 *
 * Throws InputError naming the file, the expected and the found size or checksum on a
 * mismatch: a corrupt, truncated or different file is never used silently.
 * O(file size).
 */
export async function verifyFile(path: string, expected: ManifestFile, verify = true): Promise<SourceFile> {
  const size = statSync(path).size;
  if (!verify) return { name: expected.name, path, size, sha256: null, check: 'unknown' };
  if (expected.size !== null && size !== expected.size) {
    throw new InputError(
      `${path}: expected ${expected.size} bytes (the manifest's size of ${expected.name}), found ${size} bytes; ` +
        'the file is truncated, corrupt or a different version. Fetch it again with "fairaudit data fetch", ' +
        'or pass --no-verify if you deliberately use a different copy.',
    );
  }
  const sha256 = await sha256OfFile(path);
  if (expected.sha256 === null) return { name: expected.name, path, size, sha256, check: 'unknown' };
  if (sha256 !== expected.sha256) {
    throw new InputError(
      `${path}: expected sha256 ${expected.sha256} (the manifest's checksum of ${expected.name}), found ${sha256}; ` +
        'the file is corrupt or a different version. Fetch it again with "fairaudit data fetch", ' +
        'or pass --no-verify if you deliberately use a different copy.',
    );
  }
  return { name: expected.name, path, size, sha256, check: 'verified' };
}

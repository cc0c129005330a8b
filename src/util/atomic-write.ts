import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * writeFileAtomic(path, data) writes to a temporary name beside the target and
 * renames it into place, so a reader (or a resumed run) never sees half a file.
 */
export function writeFileAtomic(path: string, data: string | Uint8Array, options: { mode?: number } = {}): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    writeFileSync(temporary, data, { mode: options.mode }); // options.mode (0o600 for a secret) holds from creation on
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

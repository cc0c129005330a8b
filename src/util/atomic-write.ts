import { randomBytes } from 'node:crypto';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { writeProblem } from './errors.js';
import { makeFolder } from './make-folder.js';

/**
 * writeFileAtomic(path, data) writes to a temporary name beside the target and
 * renames it into place, so a reader (or a resumed run) never sees half a file.
 * Throws InputError naming the path when the file system refuses (a read-only folder,
 * a file where a folder should be, a name too long, a full disk: writeProblem).
 */
export function writeFileAtomic(path: string, data: string | Uint8Array, options: { mode?: number } = {}): void {
  makeFolder(dirname(path));
  const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    writeFileSync(temporary, data, { mode: options.mode }); // options.mode (0o600 for a secret) holds from creation on
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw writeProblem(path, error) ?? error;
  }
}

import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * folderSnapshot(folder) maps every file under the folder (relative path) to the
 * SHA-256 of its bytes, to check that a refused command left prior results as they were.
 */
export function folderSnapshot(folder: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (path: string) => {
    for (const name of readdirSync(path).sort()) {
      const child = join(path, name);
      if (statSync(child).isDirectory()) walk(child);
      else files[relative(folder, child)] = createHash('sha256').update(readFileSync(child)).digest('hex');
    }
  };
  walk(folder);
  return files;
}

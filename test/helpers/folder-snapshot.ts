import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The files under `root`, as sorted paths relative to it (folders walked in name order). */
export function filesOf(root: string): string[] {
  const found: string[] = [];
  const visit = (folder: string) => {
    for (const entry of readdirSync(folder).sort()) {
      const path = join(folder, entry);
      if (statSync(path).isDirectory()) visit(path);
      else found.push(relative(root, path));
    }
  };
  visit(root);
  return found;
}

/**
 * folderSnapshot(folder) maps every file under the folder (relative path) to the
 * SHA-256 of its bytes, to check that a refused command left prior results as they were.
 */
export function folderSnapshot(folder: string): Record<string, string> {
  return Object.fromEntries(
    filesOf(folder).map((file) => [
      file,
      createHash('sha256')
        .update(readFileSync(join(folder, file)))
        .digest('hex'),
    ]),
  );
}

import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { writeProblem } from './errors.js';

/**
 * makeFolder(path) makes a folder and any missing parents, like
 * `mkdirSync(path, {recursive: true})` but with at most one mkdir per missing path
 * component. Node 20's recursive mkdir never returns when the file system answers
 * ENOENT for a child of a folder that exists (/proc: `run --out /proc/self/x` hung
 * forever); here that is an InputError. Throws InputError naming the path for a file
 * in the way, no permission, a read-only file system or a name too long (writeProblem).
 * O(path components).
 */
export function makeFolder(path: string): void {
  const missing: string[] = [];
  let current = resolve(path);
  for (;;) {
    let isFolder: boolean;
    try {
      isFolder = statSync(current).isDirectory();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') throw writeProblem(path, error) ?? error;
      missing.push(current);
      const parent = dirname(current);
      if (parent === current) break;
      current = parent;
      continue;
    }
    if (!isFolder)
      throw writeProblem(path, Object.assign(new Error('ENOTDIR'), { code: 'ENOTDIR' })) ?? new Error('ENOTDIR');
    break;
  }
  for (const folder of missing.reverse()) {
    try {
      mkdirSync(folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST' && statSync(folder).isDirectory()) continue; // made
      // meanwhile
      throw writeProblem(path, error) ?? error;
    }
  }
}

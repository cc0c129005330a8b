import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The package root (the folder with package.json), found from this module's own
 * location so it works from src/ under vitest and from dist/ when installed.
 */
export function packageRoot(): string {
  let folder = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(folder, 'package.json'))) return folder;
    folder = dirname(folder);
  }
  throw new Error('packageRoot: no package.json above the fairaudit sources');
}

/**
 * The compiled file that a worker thread should load for a module of src/ (worker
 * threads run plain JavaScript, so even under vitest they load dist/). `relative` is
 * a path under src/ with a .js ending, e.g. "harness/worker.js".
 */
export function compiledModule(relative: string): string {
  const path = join(packageRoot(), 'dist', 'src', relative);
  if (!existsSync(path)) {
    throw new Error(`compiledModule: ${path} is missing; run "npm run build" first`);
  }
  return path;
}

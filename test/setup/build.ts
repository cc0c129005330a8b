import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../src/util/paths.js';

/**
 * What dist/ is compiled from: a change to any of these makes it stale. Worker threads,
 * bin/fairaudit and the package's entry points run dist/, so tests that use them need
 * it current.
 */
const SOURCES = ['src', 'papers', 'scripts', 'tsconfig.json', 'tsconfig.build.json', 'package.json'];

/** Compiled files every build writes (tsc rewrites each output): the oldest must be newer than every source. */
const OUTPUTS = [
  'dist/src/cli/main.js',
  'dist/src/harness/worker.js',
  'dist/src/models/training-worker.js',
  'dist/src/index.js',
  'dist/src/pir/wasm/kernels.wasm',
];

/** The newest modification time of a file, or of the compiled sources (.ts, .mjs) under a folder. */
function newestModification(path: string): number {
  if (!existsSync(path)) return 0;
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(path).reduce((newest, name) => {
    const child = join(path, name);
    if (statSync(child).isDirectory()) return Math.max(newest, newestModification(child));
    return /\.(ts|mjs)$/.test(name) ? Math.max(newest, statSync(child).mtimeMs) : newest;
  }, 0);
}

/**
 * The vitest global setup: compiles dist/ once, before any test file runs, when it is
 * missing or older than a source (`npm run build`: tsc and the WebAssembly kernels), so
 * no test skips or runs stale code for want of a build. A failed build fails the run.
 */
export default function setup(): void {
  const root = packageRoot();
  const newestSource = Math.max(...SOURCES.map((path) => newestModification(join(root, path))));
  const outputs = OUTPUTS.map((path) => join(root, path));
  const oldestOutput = Math.min(...outputs.map((path) => (existsSync(path) ? statSync(path).mtimeMs : 0)));
  if (oldestOutput > newestSource) return;
  process.stderr.write('vitest global setup: dist/ is missing or older than the sources; running npm run build\n');
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
}

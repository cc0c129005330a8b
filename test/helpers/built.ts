import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe } from 'vitest';
import { packageRoot } from '../../src/util/paths.js';

/**
 * Whether dist/ holds the compiled form of a module of src/ (`relative` under src/
 * with a .js ending, e.g. "cli/main.js" or "models/training-worker.js"). bin/fairaudit
 * and worker threads run dist/, so their tests need it.
 */
export function isBuilt(relative: string): boolean {
  return existsSync(join(packageRoot(), 'dist', 'src', relative));
}

/** Why a test block that needs dist/ was skipped, and how to run it. */
export const notBuiltReason = 'dist/ is not built: run "npx tsc -p tsconfig.build.json" (or npm run build) to run these tests';

/**
 * describe() for tests that need the compiled `relative` module of src/: when dist/
 * lacks it the block is skipped and its title says why, so the skip shows in the report.
 */
export function describeWhenBuilt(relative: string, title: string, body: () => void): void {
  if (isBuilt(relative)) describe(title, body);
  else describe.skip(`${title} (skipped: ${notBuiltReason})`, body);
}

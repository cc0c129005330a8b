import { join } from 'node:path';
import { packageRoot } from '../../src/util/paths.js';

/** papers/paper-b/ in the package: everything that exists only for paper B. */
export function paperBFolder(): string {
  return join(packageRoot(), 'papers', 'paper-b');
}

/** The folder of paper B's experiment configs: papers/paper-b/configs/. */
export function paperBConfigFolder(): string {
  return join(paperBFolder(), 'configs');
}

/** The published-numbers file of paper B: papers/paper-b/published.json. */
export function paperBPublishedPath(): string {
  return join(paperBFolder(), 'published.json');
}

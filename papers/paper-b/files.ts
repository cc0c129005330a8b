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

/** The model-training preset of one Table 2 setting: papers/paper-b/configs/models/<dataset>-<attribute>.yaml. */
export function paperBModelConfig(dataset: string, attribute: string): string {
  return join(paperBConfigFolder(), 'models', `${dataset}-${attribute}.yaml`);
}

/** The published-numbers file of paper B: papers/paper-b/published.json. */
export function paperBPublishedPath(): string {
  return join(paperBFolder(), 'published.json');
}

import { join } from 'node:path';
import { packageRoot } from '../../src/util/paths.js';

/** papers/paper-a/ in the package: everything that exists only for paper A. */
export function paperAFolder(): string {
  return join(packageRoot(), 'papers', 'paper-a');
}

/** The folder of paper A's experiment configs: papers/paper-a/configs/. */
export function paperAConfigFolder(): string {
  return join(paperAFolder(), 'configs');
}

/** The model-training preset of a paper A dataset (registry name): papers/paper-a/configs/models/<dataset>.yaml. */
export function paperAModelConfig(dataset: string): string {
  return join(paperAConfigFolder(), 'models', `${dataset}.yaml`);
}

/** The published cells of paper A: papers/paper-a/published.json. */
export function paperAPublishedPath(): string {
  return join(paperAFolder(), 'published.json');
}

import { compiledModule } from '../util/paths.js';

/**
 * workersAvailable() says whether the compiled worker entries of the models exist
 * (dist/src/models/...); under vitest without a build they may not, and training then
 * runs in the calling thread instead.
 */
export function workersAvailable(): boolean {
  try {
    compiledModule('models/training-worker.js');
    compiledModule('models/trees/fold-fit-worker.js');
    return true;
  } catch {
    return false;
  }
}

import { deriveSeed } from '../util/random.js';

/**
 * replicateSeed(seed, cellKey, replicate) = deriveSeed(master seed, cell key, replicate index):
 * the seed of one replicate's generator. Its own module, so a worker thread that runs chunks
 * loads the seed derivation without the plan and the config reader (and their YAML parser).
 */
export function replicateSeed(seed: string, cellKey: string, replicate: number): string {
  return deriveSeed(seed, cellKey, replicate);
}

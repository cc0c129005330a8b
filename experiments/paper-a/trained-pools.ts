import type { PaperADataset } from '../../src/data/calibrated-pools.js';
import { loadDataset } from '../../src/data/load-dataset.js';
import { prepareSplit } from '../../src/data/prepare-split.js';
import { datasetNames } from '../../src/data/registry.js';
import { PAPER_A_MODEL_SPECS, trainPaperAModel } from '../../src/models/paper-a-models.js';
import { isInputError } from '../../src/util/errors.js';
import type { DatasetPools, SourcedPool, TrainedPoolsProvider } from './pool-sources.js';
import { PAPER_A_POOLS } from './pools.js';

/** The seed of paper A's 70/30 split and of model training (the paper publishes none). */
export const PAPER_A_TRAINING_SEED = 'paper-a-2026';

/** The registry name of a paper A dataset, or null when the registry has no loader for it. */
function registryName(dataset: PaperADataset): string | null {
  const names = datasetNames();
  if (dataset === 'adult') return names.includes('adult') ? 'adult' : null;
  return names.find((name) => name.startsWith('acs')) ?? null;
}

/**
 * trainedPools(options) returns the provider that loads a paper A dataset (the mirror
 * named by dataDirectory or FAIRAUDIT_DATA_DIR, else data/downloads/), splits it 70/30
 * stratified by label (paper A §4.1; seeded), trains the four models of §4.2 and scores
 * the test part into audit pools. A dataset that is missing or partial (the ACS mirror
 * has no feature columns) comes back unavailable with the loader's message as the reason.
 * Running time: dominated by training (see src/models).
 */
export function trainedPools(options: { dataDirectory?: string; onStage?: (stage: string) => void } = {}): TrainedPoolsProvider {
  return async (dataset: PaperADataset): Promise<DatasetPools> => {
    const name = registryName(dataset);
    if (name === null) {
      return { available: false, reason: `fairaudit's dataset registry has no loader for ${dataset} (src/data/registry.ts).` };
    }
    let table: Awaited<ReturnType<typeof loadDataset>>;
    try {
      table = await loadDataset(name, options.dataDirectory === undefined ? {} : { dataDirectory: options.dataDirectory });
    } catch (error) {
      if (isInputError(error)) return { available: false, reason: error.message };
      throw error;
    }
    const split = prepareSplit(table, { scheme: 'paper-a', seed: PAPER_A_TRAINING_SEED });
    const pools: SourcedPool[] = [];
    for (const pool of PAPER_A_POOLS.filter((entry) => entry.dataset === dataset)) {
      options.onStage?.(`training ${pool.name}`);
      const scored = trainPaperAModel(PAPER_A_MODEL_SPECS[pool.model], name, split.train, split.heldOut, PAPER_A_TRAINING_SEED);
      pools.push({
        pool,
        auditPool: scored.pool,
        origin: 'trained-model',
        reason: null,
        card: scored.card as unknown as Record<string, unknown>,
        cached: false,
      });
    }
    return { available: true, pools };
  };
}

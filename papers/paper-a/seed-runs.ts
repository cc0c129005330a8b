import { join, relative } from 'node:path';
import { writePoolFile } from '../../src/audit/pool-io.js';
import { configFromObject, type Override, readConfigObject } from '../../src/harness/config.js';
import { runExperiment } from '../../src/harness/run-experiment.js';
import type { SeedCounts } from '../../src/models/train-seed-grid.js';
import { inputError } from '../../src/util/errors.js';
import { PAPER_A_DATASETS } from './calibrated-pools.js';
import type { SourcedPool } from './pool-sources.js';
import type { SeedPairPools, SeedPoolsProvider } from './seed-pools.js';
import type { PaperASeedRun, PaperAVariabilityRecord } from './training-variability.js';

/** What the seed stage needs of the reproduction: where, which config, its overrides, threads, progress. */
export interface SeedRunsContext {
  /** The reproduction's output folder; the seed pairs' runs go under <out>/seeds/. */
  readonly out: string;
  /** The main config (papers/paper-a/configs/paper-a.yaml). */
  readonly configFile: string;
  readonly overrides: readonly Override[];
  readonly threads?: number;
  readonly progress: (stage: string, done?: number, total?: number) => void;
}

/** The folder name of seed pair k (k ≥ 1) under <out>/seeds/: model-seed-1, ..., split-seed-1, ... */
function seedFolder(pair: SeedPairPools, index: number): string {
  return `${pair.axis}-seed-${index}`;
}

/**
 * runSeedPairs(context, trainedPools, counts, provider) is paper A's training-variability
 * stage: for each dataset whose pools are trained models (`trainedPools`, the single
 * run's), the provider trains its four models under every seed pair of `counts`
 * (seedAxes: the base pair, counts.modelSeeds - 1 varied model seeds, counts.splitSeeds
 * - 1 varied split seeds); each pair but the base one gets <out>/seeds/<axis>-seed-<i>/
 * with its pools (pools/*.arrow) and the main config run on them (results.arrow,
 * run.json: the same cells, replicate seeds and overrides as the single run, so
 * Tables 1-5 come out per seed). Returns the record report-layout.json keeps (seed 0
 * is the main run itself, folder "."), or null when counts are 1/1 or no dataset has
 * trained pools. Throws InputError when a dataset that trained once cannot be trained
 * under the seeds. Running time: the models' training plus (pairs - 1) × the trained
 * pools' cells × replicates audits.
 */
export async function runSeedPairs(
  context: SeedRunsContext,
  trainedPools: readonly SourcedPool[],
  counts: SeedCounts,
  provider: SeedPoolsProvider,
): Promise<PaperAVariabilityRecord | null> {
  if (counts.modelSeeds === 1 && counts.splitSeeds === 1) return null;
  const datasets = PAPER_A_DATASETS.filter((dataset) =>
    trainedPools.some((entry) => entry.pool.dataset === dataset && entry.origin === 'trained-model'),
  );
  if (datasets.length === 0) return null;
  const perDataset: SeedPairPools[][] = [];
  for (const dataset of datasets) {
    context.progress(`seeds: ${dataset}`);
    const result = await provider(dataset, counts);
    if (!result.available)
      throw inputError({
        where: `training variability of ${dataset}`,
        expected: 'the dataset that trained the single run',
        found: result.reason,
      });
    perDataset.push([...result.pairs]);
  }
  const pairs = perDataset[0];
  const raw = readConfigObject(context.configFile);
  const runs: PaperASeedRun[] = [
    { splitSeed: pairs[0].splitSeed, modelSeed: pairs[0].modelSeed, axis: 'base', directory: '.' },
  ];
  const axisIndex = { model: 0, split: 0, base: 0 };
  for (let k = 1; k < pairs.length; k++) {
    const pair = pairs[k];
    axisIndex[pair.axis] += 1;
    const directory = join(context.out, 'seeds', seedFolder(pair, axisIndex[pair.axis]));
    const pools = perDataset.flatMap((dataset) => dataset[k].pools);
    const grid = (raw.grid ?? {}) as Record<string, unknown>;
    const poolGrid = pools.map((entry) => {
      // Named relative to the seed run's folder (its config's base), as the main run's pools are.
      const file = join('pools', `${entry.pool.name}.arrow`);
      writePoolFile(join(directory, file), entry.auditPool);
      return { name: entry.pool.name, file };
    });
    const description =
      `Paper A on the models of split seed ${pair.splitSeed}, model ` +
      `seed ${pair.modelSeed} (training variability, ${pair.axis} axis).`;
    const config = configFromObject(
      { ...raw, description, grid: { ...grid, pool: poolGrid } },
      context.configFile,
      context.overrides,
      { baseDirectory: directory },
    );
    const stage = `seeds: audits ${seedFolder(pair, axisIndex[pair.axis])} (${k} of ${pairs.length - 1})`;
    await runExperiment(config, {
      outDirectory: directory,
      threads: context.threads,
      onProgress: (done, total) => context.progress(stage, done, total),
    });
    runs.push({
      splitSeed: pair.splitSeed,
      modelSeed: pair.modelSeed,
      axis: pair.axis,
      directory: relative(context.out, directory),
    });
  }
  return { modelSeeds: counts.modelSeeds, splitSeeds: counts.splitSeeds, runs };
}

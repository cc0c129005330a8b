import type { Argv } from 'yargs';
import { modelTrainingProgress } from '../../../papers/model-training-progress.js';
import { ROBUST_BASE_SETTINGS, UNSTABLE_BASE_SETTINGS } from '../../../papers/paper-a/models.js';
import { benchmarkModels } from '../../models/models-benchmark.js';
import { type ModelSpreads, type Spread, seedVariability } from '../../models/seed-variability.js';
import { type TrainedModel, trainFromConfig } from '../../models/train-models.js';
import { trainFromConfigOverSeeds } from '../../models/train-seed-grid.js';
import { loadModelTrainingConfig } from '../../models/training-config.js';
import { checkIntegerFlag } from '../check-flag.js';
import { commandGroup } from '../command-group.js';
import { dataDirectoryOption, jsonOption, quietOption, threadsOption } from '../common-options.js';
import { defineCommand } from '../define-command.js';
import { ProgressBar } from '../progress.js';
import { modelPresets } from '../registry.js';

function fixed(value: number, digits = 4): string {
  return Number.isFinite(value) ? value.toFixed(digits) : 'n/a';
}

function describeModel(model: TrainedModel): string {
  const card = model.card;
  const origin = model.fromCache ? 'cached' : `trained in ${fixed(card.trainingSeconds, 1)} s`;
  return (
    `${model.name.padEnd(14)} accuracy ${fixed(card.accuracy)}  SP gap ${fixed(card.statisticalParityGap)}  ` +
    `EO gap ${fixed(card.equalOpportunityGap)}  pool ${card.poolRows} rows  (${origin})\n` +
    `${''.padEnd(15)}${model.directory}\n`
  );
}

function describeSpread(label: string, spread: Spread): string {
  return (
    `${label} ${fixed(spread.min)}-${fixed(spread.max)} ` +
    `(median ${fixed(spread.median)}, ${fixed(spread.mean)} ± ${fixed(spread.sd)})`
  );
}

function describeSpreads(name: string, axis: string, spreads: ModelSpreads | null): string {
  if (spreads === null) return '';
  return (
    `${name.padEnd(14)} over ${spreads.accuracy.count} ${axis}: ${describeSpread('accuracy', spreads.accuracy)}\n` +
    `${''.padEnd(15)}${describeSpread('SP gap', spreads.statisticalParityGap)}\n` +
    `${''.padEnd(15)}${describeSpread('EO gap', spreads.equalOpportunityGap)}\n`
  );
}

const trainCommand = defineCommand({
  command: 'train <config>',
  describe: 'Train the models a YAML config names (or read them from the cache) and write audit pools and model cards',
  builder: (yargs: Argv) =>
    yargs
      .positional('config', {
        type: 'string',
        demandOption: true,
        describe: 'a model-training YAML config (see papers/<paper>/configs/models/)',
      })
      .option('data-dir', dataDirectoryOption)
      .option('cache-dir', { type: 'string', describe: 'where trained models are cached (default data/cache/models/)' })
      .option('threads', { ...threadsOption, describe: "worker threads (overrides the config's threads)" })
      .option('refresh', { type: 'boolean', default: false, describe: 'retrain even when the cache has the model' })
      .option('json', { type: 'boolean', default: false, describe: 'print the model cards as JSON' })
      .option('model-seeds', {
        type: 'number',
        default: 1,
        describe: 'train under K model seeds (the config seed, then SEED/1 ...) on the config split; print the spread',
      })
      .option('split-seeds', {
        type: 'number',
        default: 1,
        describe: 'also train on K - 1 more splits (split.seed/1 ...) with the config model seed; print the spread',
      })
      .option('quiet', quietOption)
      .example('$0 models train papers/paper-a/configs/models/adult.yaml --model-seeds 10', ''),
  handler: async (args) => {
    // Off a terminal (a log, CI) each model says when it starts, how far it is every few seconds, and when it ends.
    const lines =
      args.quiet || args.json || process.stderr.isTTY
        ? {}
        : modelTrainingProgress((line) => process.stderr.write(`models: ${line}\n`));
    checkIntegerFlag('--model-seeds', args['model-seeds'], 1, 1000);
    checkIntegerFlag('--split-seeds', args['split-seeds'], 1, 1000);
    const config = loadModelTrainingConfig(args.config);
    const started = Date.now();
    if (args['model-seeds'] > 1 || args['split-seeds'] > 1) {
      const counts = { modelSeeds: args['model-seeds'], splitSeeds: args['split-seeds'] };
      const pairCount = counts.modelSeeds + counts.splitSeeds - 1;
      const bar = new ProgressBar(
        `models ${config.dataset}`,
        pairCount * config.models.length,
        args.quiet || args.json,
        'models',
      );
      let done = 0;
      const grid = await trainFromConfigOverSeeds(config, modelPresets, args.config, counts, {
        dataDirectory: args['data-dir'],
        threads: args.threads,
        cacheDirectory: args['cache-dir'],
        refresh: args.refresh,
        onNotice: (notice) => process.stderr.write(`fairaudit: notice: ${notice}\n`),
        onModelReady: () => bar.update(++done),
        ...lines,
      });
      bar.finish();
      const variability = seedVariability(grid, grid[0]);
      if (args.json) {
        const cards = grid.map((entry) => ({
          splitSeed: entry.splitSeed,
          modelSeed: entry.modelSeed,
          models: entry.models.map((model) => ({
            directory: model.directory,
            fromCache: model.fromCache,
            card: model.card,
          })),
        }));
        process.stdout.write(`${JSON.stringify({ pairs: cards, variability }, null, 2)}\n`);
        return;
      }
      for (const entry of grid) {
        process.stdout.write(`split seed ${entry.splitSeed}, model seed ${entry.modelSeed}:\n`);
        for (const model of entry.models) process.stdout.write(describeModel(model));
      }
      for (const item of variability) {
        process.stdout.write(describeSpreads(item.model, 'model seeds', item.modelSeeds));
        process.stdout.write(describeSpreads(item.model, 'split seeds', item.splitSeeds));
      }
      const count = grid.length * config.models.length;
      process.stdout.write(
        `${count} models (${grid.length} seed pairs) ready in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
      );
      return;
    }
    const bar = new ProgressBar(`models ${config.dataset}`, config.models.length, args.quiet || args.json, 'models');
    let done = 0;
    const models = await trainFromConfig(config, modelPresets, args.config, {
      dataDirectory: args['data-dir'],
      threads: args.threads,
      cacheDirectory: args['cache-dir'],
      refresh: args.refresh,
      onNotice: (notice) => process.stderr.write(`fairaudit: notice: ${notice}\n`),
      onModelReady: () => bar.update(++done),
      ...lines,
    });
    bar.finish();
    if (args.json) {
      const cards = models.map((model) => ({
        directory: model.directory,
        fromCache: model.fromCache,
        card: model.card,
      }));
      process.stdout.write(`${JSON.stringify(cards, null, 2)}\n`);
      return;
    }
    for (const model of models) process.stdout.write(describeModel(model));
    process.stdout.write(`${models.length} models ready in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  },
});

const benchCommand = defineCommand({
  command: 'bench',
  describe: 'Time the MLP kernel (Adult-sized) and the boosted trees (CCD-sized) and print the figures',
  builder: (yargs: Argv) =>
    yargs.option('epochs', { type: 'number', default: 3, describe: 'MLP epochs to time' }).option('json', jsonOption),
  handler: (args) => {
    checkIntegerFlag('--epochs', args.epochs, 1, 1000);
    const figures = benchmarkModels({ robust: ROBUST_BASE_SETTINGS, unstable: UNSTABLE_BASE_SETTINGS }, args.epochs);
    if (args.json) {
      process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
      return;
    }
    process.stdout.write(
      `MLP on ${figures.rows} x ${figures.columns} (Adult-shaped synthetic, batch 32; ${figures.kernel} kernel):\n` +
        `  Robust-Base epoch   ${fixed(figures.robustEpochMilliseconds, 0)} ms ` +
        `(CPU ${fixed(figures.robustEpochCpuMilliseconds, 0)} ms; ` +
        `JavaScript kernel CPU ${fixed(figures.robustEpochJavascriptCpuMilliseconds, 0)} ms)\n` +
        `  Unstable-Base epoch ${fixed(figures.unstableEpochMilliseconds, 0)} ms ` +
        `(CPU ${fixed(figures.unstableEpochCpuMilliseconds, 0)} ms)\n` +
        `  paper A's four models on one thread (330 + 3 epochs): about ${fixed(figures.projectedPaperASeconds, 0)} s ` +
        `(CPU ${fixed(figures.projectedPaperACpuSeconds, 0)} s)\n` +
        `Boosted trees on 16500 x 23 (CCD-shaped synthetic, 31 leaves): ${fixed(figures.treeMilliseconds, 1)} ms ` +
        `per tree ` +
        `(CPU ${fixed(figures.treeCpuMilliseconds, 1)} ms)\n`,
    );
  },
});

/** `fairaudit models train CONFIG` and `fairaudit models bench`. */
export const modelsCommand = commandGroup(
  'models',
  "Train the papers' audited models into audit pools and model cards; time the kernels",
  [trainCommand, benchCommand],
);

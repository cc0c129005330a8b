import type { Argv } from 'yargs';
import type { ReproductionResult } from '../../../papers/reproduction.js';
import { parseOverride } from '../../harness/config.js';
import { inputError } from '../../util/errors.js';
import { acquireForReproduction } from '../acquire-for-reproduction.js';
import { checkIntegerFlag } from '../check-flag.js';
import { closingBlock, recordReproduction } from '../closing-block.js';
import { threadsOption } from '../common-options.js';
import { defineCommand } from '../define-command.js';
import { Heartbeat } from '../heartbeat.js';
import { ProgressBar } from '../progress.js';
import { reproductionNames, reproductions } from '../registry.js';

/**
 * seedCounts(args) reads --model-seeds K (default 1) and --split-seeds K (default: the
 * same K, so one K varies both axes); undefined for 1/1, the single run. Throws
 * InputError (exit 2) naming the flag unless each is an integer from 1 to 100.
 */
function seedCounts(args: {
  readonly 'model-seeds': number;
  readonly 'split-seeds'?: number;
}): { modelSeeds: number; splitSeeds: number } | undefined {
  checkIntegerFlag('--model-seeds', args['model-seeds'], 1, 100);
  const splitSeeds = args['split-seeds'] ?? args['model-seeds'];
  checkIntegerFlag('--split-seeds', splitSeeds, 1, 100);
  return args['model-seeds'] === 1 && splitSeeds === 1 ? undefined : { modelSeeds: args['model-seeds'], splitSeeds };
}

/**
 * `fairaudit reproduce NAME|all`: rebuild a paper's tables and figures into
 * results/NAME/ (pools, audits, report, comparison with the published cells). Missing
 * datasets are downloaded first when the network answers (unless --calibrated,
 * --offline or FAIRAUDIT_OFFLINE=1); what could not be had is said in one stderr line.
 */
export const reproduceCommand = defineCommand({
  command: 'reproduce <name>',
  describe:
    "Reproduce a paper's tables and figures (paper-a, ..., or all) with the comparison to the published numbers",
  builder: (yargs: Argv) =>
    yargs
      .positional('name', {
        type: 'string',
        demandOption: true,
        describe: `What to reproduce: ${[...reproductionNames(), 'all'].join(', ')}`,
      })
      .option('out', {
        type: 'string',
        describe: 'Output folder (default results/<name>; with "all", a folder per reproduction under it)',
      })
      .option('set', {
        type: 'string',
        array: true,
        nargs: 1,
        describe: 'Override a setting of every config, e.g. --set replicates=1000 (repeatable)',
      })
      .option('threads', threadsOption)
      .option('calibrated', {
        type: 'boolean',
        default: false,
        describe: 'Use the embedded calibrated synthetic data even when datasets are available',
      })
      .option('offline', {
        type: 'boolean',
        default: false,
        describe:
          'Never download a missing dataset (also FAIRAUDIT_OFFLINE=1); by default a missing one is fetched when ' +
          'the network answers',
      })
      .option('data-dir', {
        type: 'string',
        describe: 'A local dataset mirror (default: FAIRAUDIT_DATA_DIR, then data/downloads/)',
      })
      .option('retrain', {
        type: 'boolean',
        default: false,
        describe: 'Retrain the models even when the model cache has them',
      })
      .option('png', {
        type: 'boolean',
        default: true,
        describe: 'Write PNGs beside the SVG charts (--no-png to skip)',
      })
      .option('timings', {
        type: 'boolean',
        default: false,
        describe: "paper-b-pir's times in its tables, not only in run.json (trees then differ between runs)",
      })
      .option('model-seeds', {
        type: 'number',
        default: 1,
        describe:
          'Training variability: retrain every model under K model seeds (and, unless --split-seeds says ' +
          'otherwise, K split seeds) and judge each trained cell against its seeds',
      })
      .option('split-seeds', {
        type: 'number',
        describe: 'How many split seeds (default: --model-seeds; 1 varies the model seed only)',
      })
      .option('quiet', { type: 'boolean', default: false, describe: 'No progress and no summary' })
      .example(
        '$0 reproduce paper-a --model-seeds 5',
        'Adult models under 5 model seeds and 5 split seeds (9 seed pairs)',
      ),
  handler: async (args) => {
    const names = reproductionNames();
    if (args.name !== 'all' && !names.includes(args.name)) {
      throw inputError({
        where: 'reproduce NAME',
        expected: `one of ${[...names, 'all'].join(', ')}`,
        found: args.name,
      });
    }
    const seeds = seedCounts(args);
    const overrides = (args.set ?? []).map(parseOverride);
    const chosen = reproductions
      .list()
      .filter((reproduction) => args.name === 'all' || reproduction.name === args.name);
    const datasets = [...new Set(chosen.flatMap((reproduction) => reproduction.datasets ?? []))];
    if (!args.calibrated && datasets.length > 0) {
      await acquireForReproduction(datasets, {
        offline: args.offline,
        quiet: args.quiet,
        ...(args.dataDir === undefined ? {} : { dataDirectory: args.dataDir }),
      });
    }
    const done: ReproductionResult[] = [];
    const heartbeat = new Heartbeat((line) => process.stderr.write(line), 5, args.quiet);
    try {
      for (const reproduction of chosen) {
        let bar: ProgressBar | undefined;
        let barStage = '';
        // The heartbeat covers the time before a reproduction's first progress line too.
        heartbeat.touch(`${reproduction.name}: starting`);
        const result = await reproduction.run({
          ...(args.out === undefined
            ? {}
            : { outDirectory: args.name === 'all' ? `${args.out}/${reproduction.name}` : args.out }),
          overrides,
          ...(args.threads === undefined ? {} : { threads: args.threads }),
          calibrated: args.calibrated,
          ...(args.dataDir === undefined ? {} : { dataDirectory: args.dataDir }),
          refreshModels: args.retrain,
          png: args.png,
          timings: args.timings,
          ...(seeds === undefined ? {} : { seeds }),
          onProgress: (stage, done, total) => {
            const named = `${reproduction.name}: ${stage}`;
            if (done === undefined || total === undefined) {
              heartbeat.touch(named);
              bar?.finish();
              bar = undefined;
              if (!args.quiet) process.stderr.write(`${named}\n`);
              return;
            }
            if (bar === undefined || barStage !== stage) {
              bar?.finish();
              const unit = stage.endsWith('search fits')
                ? 'fits'
                : stage.endsWith('VOPRF transfer')
                  ? 'labels'
                  : 'audits';
              bar = new ProgressBar(stage, total, args.quiet, unit);
              barStage = stage;
            }
            // Only a line written postpones the heartbeat: a bar between its lines leaves the log silent.
            if (bar.update(done)) heartbeat.touch(named);
            else heartbeat.enter(named);
          },
        });
        bar?.finish();
        recordReproduction(result, reproduction.title);
        done.push(result);
        if (!args.quiet) process.stdout.write(`${result.lines.join('\n')}\n`);
      }
    } finally {
      heartbeat.stop();
    }
    const root = args.name === 'all' && args.out !== undefined ? args.out : undefined;
    const block = closingBlock(done, root);
    if (!args.quiet) process.stdout.write(`${block.join('\n')}\n`);
  },
});

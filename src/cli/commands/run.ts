import type { Argv } from 'yargs';
import { loadConfig, parseOverride } from '../../harness/config.js';
import { parseShard } from '../../harness/plan.js';
import { runExperiment } from '../../harness/run-experiment.js';
import { RunInterrupted } from '../../harness/run-interrupted.js';
import { threadsOption } from '../common-options.js';
import { defineCommand } from '../define-command.js';
import { resumeCommand, watchInterruption } from '../interruption.js';
import { ProgressBar } from '../progress.js';

/** `fairaudit run CONFIG`: run an experiment's replicates on worker threads into results/<experiment>/. */
export const runCommand = defineCommand({
  command: 'run <config>',
  describe: 'Run an experiment: replicates on worker threads, Arrow results, checkpoints, shards',
  builder: (yargs: Argv) =>
    yargs
      .positional('config', { type: 'string', demandOption: true, describe: 'The experiment YAML file' })
      .option('threads', threadsOption)
      .option('out', { type: 'string', describe: 'Output folder (default results/<experiment>, or .../shard-i-of-n)' })
      .option('shard', {
        type: 'string',
        describe: 'Run only shard i of n (e.g. 2/4); merge the shards with "fairaudit merge"',
      })
      .option('resume', {
        type: 'boolean',
        default: false,
        describe: 'Continue an interrupted run from its checkpoints (each chunk verified: checksum, plan, seeds)',
      })
      .option('repair', {
        type: 'boolean',
        default: false,
        describe: 'With --resume: recompute the chunks found damaged or foreign instead of stopping',
      })
      .option('force', {
        type: 'boolean',
        default: false,
        describe: "Write into a folder that holds another experiment's results, replacing them",
      })
      .option('set', {
        type: 'string',
        array: true,
        nargs: 1,
        describe: 'Override a setting: --set budget=2000, --set grid.tolerance=[0.02,0.05] (repeatable)',
      })
      .option('quiet', {
        type: 'boolean',
        default: false,
        describe: 'No progress bar and no summary',
      }),
  handler: async (args) => {
    const shard = args.shard === undefined ? undefined : parseShard(args.shard);
    const config = loadConfig(args.config, (args.set ?? []).map(parseOverride));
    let bar: ProgressBar | undefined;
    const watch = watchInterruption((signal) =>
      process.stderr.write(`\nfairaudit: ${signal} received: checkpointing the completed chunks and stopping\n`),
    );
    const summary = await runExperiment(config, {
      signal: watch.signal,
      ...(args.threads === undefined ? {} : { threads: args.threads }),
      ...(args.out === undefined ? {} : { outDirectory: args.out }),
      ...(shard === undefined ? {} : { shard }),
      resume: args.resume,
      repair: args.repair,
      force: args.force,
      command: `fairaudit run ${args.config}`,
      onNotice: (notice) => process.stderr.write(`fairaudit: notice: ${notice}\n`),
      onProgress: (done, total) => {
        bar ??= new ProgressBar(`run ${config.experiment}`, total, args.quiet, 'replicates');
        bar.update(done);
      },
    }).catch((error) => {
      if (!(error instanceof RunInterrupted)) throw error;
      process.stderr.write(
        `fairaudit: interrupted ` +
          `by ${watch.received()}: ${error.savedReplicates} of ${error.totalReplicates} replicates are saved ` +
          `in ${error.checkpointFolder} and the folder's lock is released; continue ` +
          `with: ${resumeCommand(process.argv.slice(2))}\n`,
      );
      process.exitCode = watch.exitCode();
      return null;
    });
    watch.dispose();
    if (summary === null) return;
    bar?.finish();
    if (args.quiet) return;
    if (summary.alreadyComplete) {
      process.stdout.write(`${summary.resultsFile} is already complete for this plan; nothing to do\n`);
      return;
    }
    const resumed = summary.resumedChunks > 0 ? `, ${summary.resumedChunks} chunks resumed from checkpoints` : '';
    process.stdout.write(
      `wrote ${summary.resultsFile} (${summary.rows} replicates, ${summary.cells} cells) and run.json ` +
        `in ${summary.wallSeconds.toFixed(2)} s ` +
        `with ${summary.threads} thread${summary.threads === 1 ? '' : 's'}${resumed}\n`,
    );
  },
});

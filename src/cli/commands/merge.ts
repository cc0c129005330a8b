import type { Argv } from 'yargs';
import { mergeShards } from '../../harness/merge-shards.js';
import { defineCommand } from '../define-command.js';
import { endOnInterruption } from '../interruption.js';

/** `fairaudit merge DIR... --out DIR`: combine shard results into the bytes a single run writes. */
export const mergeCommand = defineCommand({
  command: 'merge <folders..>',
  describe: 'Merge the results of "run --shard i/n" folders into one results.arrow, byte-identical to a single run',
  builder: (yargs: Argv) =>
    yargs
      .positional('folders', { type: 'string', array: true, demandOption: true, describe: 'The shard output folders' })
      .option('out', {
        type: 'string',
        demandOption: true,
        describe: 'Folder for the merged results.arrow and run.json',
      })
      .option('force', {
        type: 'boolean',
        default: false,
        describe: "Write into a folder that holds another experiment's results, replacing them",
      })
      .option('quiet', {
        type: 'boolean',
        default: false,
        describe: 'Print nothing',
      }),
  handler: async (args) => {
    const watch = endOnInterruption(args.out);
    const summary = await mergeShards(args.folders, args.out, {
      force: args.force,
      command: `fairaudit merge --out ${args.out}`,
      onNotice: (notice) => process.stderr.write(`fairaudit: notice: ${notice}\n`),
    }).finally(watch.dispose);
    if (!args.quiet)
      process.stdout.write(
        `merged ${summary.shards} shards into ${summary.resultsFile} (${summary.rows} replicates)\n`,
      );
  },
});

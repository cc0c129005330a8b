import { resolve } from 'node:path';
import type { Argv, CommandModule } from 'yargs';
import { mergeShards } from '../../harness/merge-shards.js';
import { inputError } from '../../util/errors.js';

interface MergeArguments {
  folders: string[];
  out: string;
  quiet: boolean;
}

/** `fairaudit merge DIR... --out DIR`: combine shard results into the bytes a single run writes. */
export const mergeCommand: CommandModule<object, MergeArguments> = {
  command: 'merge <folders..>',
  describe: 'Merge the results of "run --shard i/n" folders into one results.arrow, byte-identical to a single run',
  builder: (yargs: Argv) =>
    yargs
      .positional('folders', { type: 'string', array: true, demandOption: true, describe: 'The shard output folders' })
      .option('out', { type: 'string', demandOption: true, describe: 'Folder for the merged results.arrow and run.json' })
      .option('quiet', { type: 'boolean', default: false, describe: 'Print nothing' }) as unknown as Argv<MergeArguments>,
  handler: (args) => {
    if (args.out.trim() === '') throw inputError({ where: '--out', expected: 'a folder path for the merged results', found: args.out });
    // Merging onto a shard would overwrite that shard's results.arrow with the merged table.
    const onto = args.folders.find((folder) => resolve(folder) === resolve(args.out));
    if (onto !== undefined) {
      throw inputError({ where: '--out', expected: 'a folder other than the shard folders being merged', found: args.out });
    }
    const summary = mergeShards(args.folders, args.out);
    if (!args.quiet) process.stdout.write(`merged ${summary.shards} shards into ${summary.resultsFile} (${summary.rows} replicates)\n`);
  },
};

import type { Argv, CommandModule } from 'yargs';
import { benchmarkPaperA } from '../../../../papers/paper-a/bench.js';
import { checkIntegerFlag } from '../../check-flag.js';

interface BenchPaperAArguments {
  json: boolean;
  replicates: number;
}

/** `fairaudit bench paper-a`: compute time of paper A's audits (48 cells x replicates) on one thread. */
export const benchPaperACommand: CommandModule<object, BenchPaperAArguments> = {
  command: 'paper-a',
  describe:
    "Compute time of paper A's 48-cell audit grid on the calibrated pools, one thread (bar: < 2 s for 20 " +
    'replicates per cell)',
  builder: (yargs: Argv) =>
    yargs
      .option('json', { type: 'boolean', default: false, describe: 'Print the figures as JSON' })
      .option('replicates', {
        type: 'number',
        default: 20,
        describe: 'Replicates per cell',
      }) as unknown as Argv<BenchPaperAArguments>,
  handler: (args) => {
    checkIntegerFlag('--replicates', args.replicates, 1);
    const figures = benchmarkPaperA(args.replicates);
    if (args.json) {
      process.stdout.write(`${JSON.stringify({ 'paper-a': figures }, null, 2)}\n`);
      return;
    }
    process.stdout.write(
      [
        `workload: ${figures.workload}`,
        `calibrated pools: ${figures.poolSeconds.toFixed(2)} s; prepare 48 ` +
          `cells: ${figures.prepareSeconds.toFixed(2)} s`,
        `audits: ${figures.audits} in ${figures.auditSeconds.toFixed(2)} s ` +
          `(${figures.auditCpuSeconds.toFixed(2)} CPU ` +
          `s), ${figures.queries} queries, ${(figures.queriesPerSecond / 1e6).toFixed(2)} M queries/s (bar: < 2 ` +
          `s for 20 ` +
          `replicates per cell)`,
        'Figures from a shared machine are provisional.',
        '',
      ].join('\n'),
    );
  },
};

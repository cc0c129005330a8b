import type { Argv, CommandModule } from 'yargs';
import { benchmarkRunner, DEFAULT_RUNNER_REPLICATES } from '../../../harness/benchmark.js';
import { benchmarkRunnerDry } from '../../../harness/dry-run-benchmark.js';
import { checkIntegerFlag } from '../../check-flag.js';

interface BenchRunnerArguments {
  json: boolean;
  replicates?: number;
  dry: boolean;
}

/** `fairaudit bench runner`: replicate audits per second at 1 and 2 threads, and a 10,000-replicate quickstart. */
export const benchRunnerCommand: CommandModule<object, BenchRunnerArguments> = {
  command: 'runner',
  describe: 'Replicate audits per second at 1 and 2 worker threads, and the time of a 10,000-replicate quickstart',
  builder: (yargs: Argv) =>
    yargs
      .option('json', { type: 'boolean', default: false, describe: 'Print the figures as JSON' })
      .option('replicates', {
        type: 'number',
        describe:
          'Replicates per timed run (default 200000: start-up a small share of the 1-thread time); with --dry, ' +
          'in all (default 10^8)',
      })
      .option('dry', {
        type: 'boolean',
        default: false,
        describe:
          'Run the plan, checkpoints and results writer of the quickstart grid without audits, and print the ' +
          'peak RSS (the bound: < 500 MB for 10^8 replicates)',
      }) as unknown as Argv<BenchRunnerArguments>,
  handler: async (args) => {
    if (args.dry) {
      const replicates = checkIntegerFlag('--replicates', args.replicates ?? 100_000_000, 12);
      const dry = await benchmarkRunnerDry(replicates);
      if (args.json) {
        process.stdout.write(`${JSON.stringify({ runnerDry: dry }, null, 2)}\n`);
        return;
      }
      process.stdout.write(
        [
          `workload: ${dry.workload}`,
          `plan: ${dry.cells} cells, ${dry.chunks} chunks, built in ${dry.planSeconds.toFixed(3)} s`,
          `run: ${dry.replicates} replicates (plan, checkpoints, results.arrow ` +
            `of ${(dry.resultsBytes / 1e9).toFixed(2)} GB, run.json) in ${dry.seconds.toFixed(1)} s`,
          `peak RSS: ${dry.peakRssMB.toFixed(0)} MB (bound: < 500 MB for 10^8 replicates)`,
          '',
        ].join('\n'),
      );
      return;
    }
    const replicates = checkIntegerFlag('--replicates', args.replicates ?? DEFAULT_RUNNER_REPLICATES, 100);
    const figures = await benchmarkRunner(replicates);
    if (args.json) {
      process.stdout.write(`${JSON.stringify({ runner: figures }, null, 2)}\n`);
      return;
    }
    const line = (t: { replicates: number; seconds: number; replicatesPerSecond: number; cpuSeconds: number }) =>
      `${t.replicates} replicates in ${t.seconds.toFixed(2)} s: ${t.replicatesPerSecond.toFixed(0)} replicate ` +
      `audits/s (${t.cpuSeconds.toFixed(2)} CPU s, ${(t.cpuSeconds / t.seconds).toFixed(2)} cores busy)`;
    process.stdout.write(
      [
        `workload: ${figures.workload}`,
        `1 thread:  ${line(figures.oneThread)}`,
        `2 threads: ${line(figures.twoThreads)}`,
        `speedup:   ${figures.speedup.toFixed(2)}× measured (bar: ≥ ` +
          `1.8×); ${figures.projectedSpeedup.toFixed(2)}× projected for two idle cores from the CPU time each run used`,
        `quickstart at 2 threads: ${line(figures.quickstart)} (bar: < 30 s)`,
        `quickstart fixed cost (1 replicate a cell, 2 threads): ${figures.quickstartFixedCost.seconds.toFixed(2)} s ` +
          'of worker start-up, pool and audit preparation and files, paid by each worker',
        'Wall-clock figures on a shared machine are provisional: "cores busy" below the thread count means other ' +
          'work took the CPU.',
        '',
      ].join('\n'),
    );
  },
};

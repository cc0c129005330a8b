import type { Argv, CommandModule } from 'yargs';
import { benchmarkCalibration } from '../../../audit/calibration/calibration-benchmark.js';
import { checkThreadsFlag } from '../../audit-options.js';
import { checkIntegerFlag } from '../../check-flag.js';

interface BenchCalibrateArguments {
  json: boolean;
  threads: number;
  paths: number;
  groups: string;
}

/**
 * `fairaudit bench calibrate`: the time of one calibration of paper A's Adult SP
 * decision-access setting (groups of 9158 men and 4409 women: the Adult test split,
 * δ = 0.05, B = 4000, α = 0.05, β = 0.2, 4000 simulated audits per pool), and simulated
 * audits per second.
 */
export const benchCalibrateCommand: CommandModule<object, BenchCalibrateArguments> = {
  command: 'calibrate',
  describe:
    "Time one GLR threshold calibration of paper A's Adult SP decision-access setting and print simulated audits " +
    'per second (bar: ≤ 10 s on 2 threads)',
  builder: (yargs: Argv) =>
    yargs
      .option('json', { type: 'boolean', default: false, describe: 'Print the figures as JSON' })
      .option('threads', { type: 'number', default: 2, describe: 'Worker threads' })
      .option('paths', { type: 'number', default: 4000, describe: 'Simulated audits per calibration pool' })
      .option('groups', {
        type: 'string',
        default: '9158,4409',
        describe: 'The group sizes A,B (default: the Adult SP pool of paper A)',
      }) as unknown as Argv<BenchCalibrateArguments>,
  handler: async (args) => {
    checkThreadsFlag(args.threads);
    checkIntegerFlag('--paths', args.paths, 100);
    const [countA, countB] = args.groups.split(',').map(Number);
    checkIntegerFlag('--groups', countA, 1);
    checkIntegerFlag('--groups', countB, 1);
    const clocks = {
      cpuSeconds: () => {
        const usage = process.cpuUsage();
        return (usage.user + usage.system) / 1e6;
      },
      wallSeconds: () => Number(process.hrtime.bigint()) / 1e9,
    };
    const setting = {
      access: 'decision' as const,
      countA,
      countB,
      tolerance: 0.05,
      budget: 4000,
      minimumPerGroup: 1,
      order: 'random' as const,
      alpha: 0.05,
      beta: 0.2,
    };
    const figures = await benchmarkCalibration(
      setting,
      { seed: 'bench-calibrate', paths: args.paths },
      args.threads,
      clocks,
    );
    if (args.json) {
      process.stdout.write(`${JSON.stringify({ calibrate: figures })}\n`);
      return;
    }
    process.stdout.write(
      [
        `calibration of the GLR thresholds: decision access, groups of ${countA} and ${countB}, δ 0.05, B 4000, ` +
          `α 0.05, β 0.2, ${args.paths} simulated audits per pool, ${args.threads} threads`,
        `  ${(figures.wallSeconds).toFixed(1)} s wall (bar: ≤ 10 s on 2 ` +
          `threads), ${figures.cpuSeconds.toFixed(1)} s CPU; ${figures.audits} simulated ` +
          `audits: ${figures.auditsPerSecond.toFixed(0)} audits/s (${figures.auditsPerCpuSecond.toFixed(0)} per ` +
          `CPU second)`,
        `  thresholds ${figures.upper.toFixed(2)}, ${figures.lower.toFixed(2)}${
          figures.certified ? ' (certified)' : ' (NOT ' + 'certified)'
        }`,
        'Figures from a shared machine are provisional.',
        '',
      ].join('\n'),
    );
  },
};

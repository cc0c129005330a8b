import type { Argv, CommandModule } from 'yargs';
import { measureGlrThroughput, THROUGHPUT_WORKLOAD } from '../../../stats/glr-throughput.js';
import { measureTestThroughput } from '../../../stats/test-throughput.js';
import { inputError } from '../../../util/errors.js';
import { createRandom } from '../../../util/random.js';

interface BenchGlrArguments {
  json: boolean;
  updates: number;
  runs: number;
}

/** `fairaudit bench glr`: Bernoulli and Gaussian GLR updates per second on one thread. */
export const benchGlrCommand: CommandModule<object, BenchGlrArguments> = {
  command: 'glr',
  describe:
    'GLR updates per second (one observation folded in, exact signed statistic brought up to date) on one ' +
    "thread, and the betting test's beside them",
  builder: (yargs: Argv) =>
    yargs
      .option('json', {
        type: 'boolean',
        default: false,
        describe: 'Print {"bernoulli": {"updatesPerSecond": ...}, "gaussian": {...}}',
      })
      .option('updates', { type: 'number', default: 4_000_000, describe: 'Observations in the synthetic stream' })
      .option('runs', {
        type: 'number',
        default: 5,
        describe: 'Timed passes (the median is reported)',
      }) as Argv<BenchGlrArguments>,
  handler: (argv) => {
    for (const flag of ['updates', 'runs'] as const) {
      if (!(Number.isSafeInteger(argv[flag]) && argv[flag] >= 1)) {
        throw inputError({ where: `--${flag}`, expected: 'an integer >= 1', found: argv[flag] });
      }
    }
    const clocks = {
      cpuSeconds: () => {
        const usage = process.cpuUsage();
        return (usage.user + usage.system) / 1e6;
      },
      wallSeconds: () => Number(process.hrtime.bigint()) / 1e9,
    };
    const bernoulli = measureGlrThroughput(
      'bernoulli',
      argv.updates,
      argv.runs,
      createRandom('bench-glr-bernoulli'),
      clocks,
    );
    const gaussian = measureGlrThroughput(
      'gaussian',
      argv.updates,
      argv.runs,
      createRandom('bench-glr-gaussian'),
      clocks,
    );
    // The betting test on the Bernoulli workload (same stream seed): its cost per query beside the GLR's (bar: at most
    // 3x).
    const betting = measureTestThroughput(
      'betting',
      argv.updates,
      argv.runs,
      createRandom('bench-glr-bernoulli'),
      clocks,
    );
    const costRatio = bernoulli.updatesPerSecond / betting.updatesPerSecond;
    if (argv.json) {
      const entry = (r: Pick<typeof bernoulli, 'updatesPerSecond' | 'wallUpdatesPerSecond' | 'updates' | 'runs'>) => ({
        updatesPerSecond: Math.round(r.updatesPerSecond),
        wallUpdatesPerSecond: Math.round(r.wallUpdatesPerSecond),
        updates: r.updates,
        runs: r.runs,
      });
      const json = {
        bernoulli: entry(bernoulli),
        gaussian: entry(gaussian),
        betting: { ...entry(betting), costPerQueryVsBernoulliGlr: costRatio },
        workload: THROUGHPUT_WORKLOAD,
      };
      process.stdout.write(`${JSON.stringify(json)}\n`);
      return;
    }
    const millions = (rate: number) => `${(rate / 1e6).toFixed(2)}`.padStart(8);
    process.stdout.write(
      `GLR updates on one thread, millions per second (median of ${argv.runs} passes ` +
        `over ${argv.updates} observations;\n` +
        `segments of ${THROUGHPUT_WORKLOAD.segmentLength}, gaps ${THROUGHPUT_WORKLOAD.gaps.join(', ')} around ` +
        `tolerance ${THROUGHPUT_WORKLOAD.tolerance})\n` +
        `             per CPU second   per wall second\n` +
        `  bernoulli  ${millions(bernoulli.updatesPerSecond)}         ${millions(bernoulli.wallUpdatesPerSecond)}\n` +
        `  gaussian   ${millions(gaussian.updatesPerSecond)}         ${millions(gaussian.wallUpdatesPerSecond)}\n` +
        `  betting    ${millions(betting.updatesPerSecond)}         ${millions(betting.wallUpdatesPerSecond)}   (the ` +
        `betting test on the Bernoulli stream: ${costRatio.toFixed(2)}x the GLR's cost per query; bar: at most 3x)\n`,
    );
  },
};

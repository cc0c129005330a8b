import { loadavg } from 'node:os';
import type { Argv, CommandModule } from 'yargs';
import { PAPER_B_CANDIDATE_SETS } from '../../../../papers/paper-b/table-1.js';
import { benchmarkObliviousTransports } from '../../../pir/benchmark-oblivious.js';
import { inputError } from '../../../util/errors.js';
import { checkIntegerFlag } from '../../check-flag.js';

interface BenchObliviousArguments {
  'paper-sizes': boolean;
  sizes?: string;
  retrievals?: number;
  canaries: number;
  threads: number;
  'table-sample'?: number;
  json: boolean;
}

/** "13500,2^22" → entry counts. */
function parseSizes(text: string): number[] {
  const values = text.split(',').map((part) => {
    const power = /^2\^(\d+)$/.exec(part.trim());
    return power ? 2 ** Number(power[1]) : Number(part.trim().replaceAll('_', ''));
  });
  if (values.some((value) => !Number.isInteger(value) || value < 2 || value > 2 ** 26)) {
    throw inputError({
      where: '--sizes',
      expected: 'comma-separated entry counts such as 13500,2^22 (2 to 2^26)',
      found: text,
    });
  }
  return values;
}

const fixed = (value: number, digits: number, width: number) => value.toFixed(digits).padStart(width);

/** `fairaudit bench oblivious`: both label transports side by side, one audit each per size. */
export const benchObliviousCommand: CommandModule<object, BenchObliviousArguments> = {
  command: 'oblivious',
  describe:
    'One oblivious audit through both label transports side by side (VOPRF label transfer and SimplePIR): labels ' +
    'revealed, bytes moved, provider and auditor time',
  builder: (yargs: Argv) =>
    yargs
      .option('paper-sizes', {
        type: 'boolean',
        default: false,
        describe:
          `paper B's candidate sets ` +
          `(${PAPER_B_CANDIDATE_SETS.map((set) => `${set.dataset} ${set.entries}`).join(', ')}) with |S| = ⌈N/2⌉`,
      })
      .option('sizes', { type: 'string', describe: 'entry counts, comma-separated (13500,2^22)' })
      .option('retrievals', { type: 'number', describe: 'for --sizes: |S| + k (default ⌈N/2⌉ + k)' })
      .option('canaries', { type: 'number', default: 10, describe: 'k' })
      .option('threads', { type: 'number', default: 2, describe: 'threads for the VOPRF table' })
      .option('table-sample', {
        type: 'number',
        describe: 'build at most this many table entries and extrapolate the table time linearly (marked ~)',
      })
      .option('json', { type: 'boolean', default: false, describe: 'one JSON object per transport and size' })
      .example('$0 bench oblivious --paper-sizes', 'the candidate sets of paper B')
      .example(
        '$0 bench oblivious --sizes 2^22 --retrievals 10050 --table-sample 65536',
        'N = 2^22, |S| + k = 10,050, the table extrapolated from 2^16 entries',
      ) as Argv<BenchObliviousArguments>,
  handler: async (argv) => {
    checkIntegerFlag('--threads', argv.threads, 1, 64);
    checkIntegerFlag('--canaries', argv.canaries, 0, 100_000);
    if (argv['table-sample'] !== undefined) checkIntegerFlag('--table-sample', argv['table-sample'], 1);
    const sizes: Array<{ entries: number; retrievals: number }> = [];
    if (argv['paper-sizes']) {
      for (const set of PAPER_B_CANDIDATE_SETS)
        sizes.push({ entries: set.entries, retrievals: Math.ceil(set.entries / 2) + argv.canaries });
    }
    for (const entries of argv.sizes ? parseSizes(argv.sizes) : []) {
      if (argv.retrievals !== undefined) checkIntegerFlag('--retrievals', argv.retrievals, 1, entries);
      sizes.push({ entries, retrievals: argv.retrievals ?? Math.min(entries, Math.ceil(entries / 2) + argv.canaries) });
    }
    if (sizes.length === 0)
      throw inputError({ where: '--sizes/--paper-sizes', expected: 'at least one size', found: 'none' });
    if (!argv.json) {
      process.stdout.write(
        `load average before: ${loadAverage()}\n` +
          'one audit per size and transport; ms; CPU time (all threads; table: CPU / threads), except simplepir ' +
          'setup and provider: wall medians of bench pir; simplepir with its default secret challenge; ' +
          '~ = extrapolated\n' +
          'transport         N  |S|+k  revealed  setup ms  thr  provider ms  auditor ms  whole audit s    MB moved\n',
      );
    }
    for (const size of sizes) {
      const rows = await benchmarkObliviousTransports({
        ...size,
        threads: argv.threads,
        ...(argv['table-sample'] === undefined ? {} : { tableSampleEntries: argv['table-sample'] }),
      });
      for (const row of rows) {
        if (argv.json) {
          process.stdout.write(`${JSON.stringify(row)}\n`);
          continue;
        }
        const whole = (row.providerSetupMs + row.providerOnlineMs + row.auditorMs) / 1000;
        process.stdout.write(
          `${row.transport.padEnd(9)} ${String(row.entries).padStart(9)} ${String(row.retrievals).padStart(6)} ` +
            `${String(row.labelsRevealed).padStart(9)} ` +
            `${row.setupExtrapolated ? '~' : ' '}${fixed(row.providerSetupMs, 0, 8)} ` +
            `${String(row.threads).padStart(4)} ${fixed(row.providerOnlineMs, 0, 12)} ` +
            `${fixed(row.auditorMs, 0, 11)} ${fixed(whole, 1, 14)} ${fixed(row.bytesMoved / 1e6, 3, 11)}\n`,
        );
      }
    }
    if (!argv.json) process.stdout.write(`load average after: ${loadAverage()}\n`);
  },
};

/** The 1, 5 and 15 minute load averages (the machine may be shared: read the CPU figures beside them). */
function loadAverage(): string {
  return loadavg()
    .map((value) => value.toFixed(2))
    .join(', ');
}

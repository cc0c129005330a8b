import type { Argv, CommandModule } from 'yargs';
import { PAPER_B_CANDIDATE_SETS, writePaperBTableOne } from '../../../../papers/paper-b/table-1.js';
import { benchmarkPir, type PirBenchmarkRow } from '../../../pir/benchmark-pir.js';
import { inputError } from '../../../util/errors.js';
import { checkIntegerFlag } from '../../check-flag.js';

interface BenchPirArguments {
  'log-n': string;
  sizes?: string;
  'paper-sizes': boolean;
  'entry-bits': number;
  repetitions: number;
  json: boolean;
  out?: string;
}

/** Parses "14..24" or "14,16,20" into log2 sizes. */
function parseLogSizes(text: string): number[] {
  const range = /^(\d+)\.\.(\d+)$/.exec(text.trim());
  const values = range
    ? Array.from({ length: Math.max(0, Number(range[2]) - Number(range[1]) + 1) }, (_, i) => Number(range[1]) + i)
    : text.split(',').map((part) => Number(part.trim()));
  if (values.length === 0 || values.some((value) => !Number.isInteger(value) || value < 0 || value > 28)) {
    throw inputError({
      where: '--log-n',
      expected: 'a range such as 14..24 or a list such as 14,20,24 (each in [0, 28])',
      found: text,
    });
  }
  return values;
}

function parseSizes(text: string): number[] {
  const values = text.split(',').map((part) => Number(part.trim().replaceAll('_', '')));
  if (values.some((value) => !Number.isInteger(value) || value < 1 || value > 2 ** 28)) {
    throw inputError({ where: '--sizes', expected: 'comma-separated entry counts in [1, 2^28]', found: text });
  }
  return values;
}

const number = (value: number, digits: number, width: number) => value.toFixed(digits).padStart(width);

/** `fairaudit bench pir`: offline and online PIR costs and answer throughput per database size. */
export const benchPirCommand: CommandModule<object, BenchPirArguments> = {
  command: 'pir',
  describe:
    'SimplePIR with commitment: hint, query, answer, recovery times, bytes and answer GB/s per database size ' +
    '(one core)',
  builder: (yargs: Argv) =>
    yargs
      .option('log-n', {
        type: 'string',
        default: '14..24',
        describe: 'log2 of the entry counts: a range 14..24 or a list 14,20',
      })
      .option('sizes', { type: 'string', describe: 'extra entry counts, comma-separated (e.g. 13500,2778,36450)' })
      .option('paper-sizes', {
        type: 'boolean',
        default: false,
        describe:
          `add paper B's candidate-set sizes ` +
          `(${PAPER_B_CANDIDATE_SETS.map((s) => `${s.dataset} ${s.entries}`).join(', ')})`,
      })
      .option('entry-bits', { type: 'number', default: 1, describe: 'bits per entry (1 for labels)' })
      .option('repetitions', {
        type: 'number',
        default: 30,
        describe: 'online repetitions per size (medians reported)',
      })
      .option('json', { type: 'boolean', default: false, describe: 'print one JSON object per size, one per line' })
      .option('out', {
        type: 'string',
        describe: 'also write paper B Table 1 (Arrow, CSV, Markdown) and its chart to this folder',
      })
      .example('$0 bench pir --log-n 14..24 --json', 'the speed figures per size as JSON lines')
      .example(
        '$0 bench pir --paper-sizes --out results/pir-table-1',
        'paper B Table 1 as a table and chart',
      ) as Argv<BenchPirArguments>,
  handler: async (argv) => {
    checkIntegerFlag('--repetitions', argv.repetitions, 1, 10_000);
    checkIntegerFlag('--entry-bits', argv['entry-bits'], 1, 8);
    const sizes = parseLogSizes(argv['log-n']).map((log) => 2 ** log);
    if (argv.sizes) sizes.push(...parseSizes(argv.sizes));
    if (argv['paper-sizes']) sizes.push(...PAPER_B_CANDIDATE_SETS.map((set) => set.entries));
    const rows: PirBenchmarkRow[] = [];
    if (!argv.json) {
      process.stdout.write(
        'SimplePIR + commitment, one core; times are medians in ms, GB/s of raw database (N·d/8 bytes)\n' +
          '       N     p   ℓ × m   hint wall (cpu)   query  answer recover  verify  query B answer ' +
          'B  answer  kernel ceiling correct\n',
      );
    }
    for (const entries of sizes) {
      const row = await benchmarkPir({ entries, entryBits: argv['entry-bits'], repetitions: argv.repetitions });
      rows.push(row);
      if (argv.json) {
        process.stdout.write(`${JSON.stringify(row)}\n`);
        continue;
      }
      process.stdout.write(
        `${String(entries).padStart(8)} ${String(row.plaintextModulus).padStart(5)} ` +
          `${`${row.rows}×${row.columns}`.padStart(9)} ` +
          `${number(row.hintMs, 1, 9)} (${number(row.hintCpuMs, 1, 6)}) ${number(row.queryMs, 3, 7)} ` +
          `${number(row.answerMs, 3, 7)} ${number(row.recoverMs, 3, 7)} ` +
          `${number(row.verifyMs, 3, 7)} ${String(row.queryBytes).padStart(8)} ` +
          `${String(row.answerBytes).padStart(8)} ` +
          `${number(row.answerGBps, 2, 7)} ${number(row.kernelGBps, 2, 7)} ${number(row.ceilingGBps, 2, 7)} ` +
          `${row.correct ? 'yes' : 'NO'}\n`,
      );
    }
    if (argv.out) {
      const paths = await writePaperBTableOne(argv.out, rows, { timings: true });
      if (!argv.json) process.stdout.write(`wrote ${paths.join(', ')}\n`);
    }
    if (rows.some((row) => !row.correct)) process.exitCode = 1;
  },
};

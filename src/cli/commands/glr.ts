import type { Argv } from 'yargs';
import { evaluateGlrCase, glrCaseFromJson } from '../../stats/glr-case.js';
import { inputError } from '../../util/errors.js';
import { MAX_JSON_FILE_BYTES, readFileCapped } from '../../util/read-capped.js';
import { defineCommand } from '../define-command.js';

/** JSON has no infinities: print them as the strings "Infinity" / "-Infinity". */
function jsonNumber(value: number): number | string {
  return Number.isFinite(value) ? value : String(value);
}

const flagName = (field: string) => `--${field.replaceAll('_', '-')}`;

const bernoulliCommand = defineCommand({
  command: 'bernoulli',
  describe: 'Signed Bernoulli GLR for H0: |theta_a - theta_b| <= tolerance from counts',
  builder: (yargs: Argv) =>
    yargs
      .option('n-a', { type: 'string', demandOption: true, describe: 'Observations of group a' })
      .option('s-a', { type: 'string', demandOption: true, describe: 'Positives of group a' })
      .option('n-b', { type: 'string', demandOption: true, describe: 'Observations of group b' })
      .option('s-b', { type: 'string', demandOption: true, describe: 'Positives of group b' })
      .option('tolerance', { type: 'string', demandOption: true, describe: 'delta in (0, 1)' })
      .example('$0 glr bernoulli --n-a 120 --s-a 30 --n-b 130 --s-b 52 --tolerance 0.05', ''),
  handler: (argv) => {
    const fields = {
      n_a: argv['n-a'],
      s_a: argv['s-a'],
      n_b: argv['n-b'],
      s_b: argv['s-b'],
      tolerance: argv.tolerance,
    };
    const glr = evaluateGlrCase('bernoulli', fields, flagName);
    process.stdout.write(`${JSON.stringify({ glr: jsonNumber(glr) })}\n`);
  },
});

const gaussianCommand = defineCommand({
  command: 'gaussian',
  describe: 'Signed Gaussian proxy GLR (common variance profiled) for H0: |mu_a - mu_b| <= tolerance from sums',
  builder: (yargs: Argv) =>
    yargs
      .option('n-a', { type: 'string', demandOption: true, describe: 'Observations of group a' })
      .option('sum-a', { type: 'string', demandOption: true, describe: 'Sum of group a' })
      .option('sumsq-a', { type: 'string', demandOption: true, describe: 'Sum of squares of group a' })
      .option('n-b', { type: 'string', demandOption: true, describe: 'Observations of group b' })
      .option('sum-b', { type: 'string', demandOption: true, describe: 'Sum of group b' })
      .option('sumsq-b', { type: 'string', demandOption: true, describe: 'Sum of squares of group b' })
      .option('tolerance', {
        type: 'string',
        demandOption: true,
        describe: 'tau > 0',
      }),
  handler: (argv) => {
    const fields = {
      n_a: argv['n-a'],
      sum_a: argv['sum-a'],
      sumsq_a: argv['sumsq-a'],
      n_b: argv['n-b'],
      sum_b: argv['sum-b'],
      sumsq_b: argv['sumsq-b'],
      tolerance: argv.tolerance,
    };
    const glr = evaluateGlrCase('gaussian', fields, flagName);
    process.stdout.write(`${JSON.stringify({ glr: jsonNumber(glr) })}\n`);
  },
});

/** `fairaudit glr`: the signed GLR statistic of one case (flags) or of every line of a JSONL file. */
export const glrCommand = defineCommand({
  command: 'glr',
  describe: 'Signed GLR statistics: glr bernoulli|gaussian with flags, or glr --input FILE.jsonl',
  builder: (yargs: Argv) =>
    yargs
      .command(bernoulliCommand)
      .command(gaussianCommand)
      .option('input', {
        type: 'string',
        describe:
          'A JSONL file, one case per line: ' +
          '{"family":"bernoulli","n_a":..,"s_a":..,"n_b":..,"s_b":..,"tolerance":..} ' +
          'or gaussian with sum_a, sumsq_a, sum_b, sumsq_b; prints each case with a "glr" field',
      })
      .example('$0 glr --input cases.jsonl', ''),
  handler: (argv) => {
    if (argv.input === undefined) {
      throw inputError({
        where: 'glr',
        expected: 'a family (bernoulli, gaussian) or --input FILE.jsonl',
        found: 'neither',
      });
    }
    const text = readFileCapped(argv.input, MAX_JSON_FILE_BYTES, 'a readable JSONL file').toString('utf8');
    const lines = text.split(/\r?\n/);
    const output: string[] = [];
    lines.forEach((line, index) => {
      if (line.trim() === '') return;
      const { record, glr } = glrCaseFromJson(line, `${argv.input}: line ${index + 1}`);
      output.push(JSON.stringify({ ...record, glr: jsonNumber(glr) }));
    });
    process.stdout.write(output.length > 0 ? `${output.join('\n')}\n` : '');
  },
});

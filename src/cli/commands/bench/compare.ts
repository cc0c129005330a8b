import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Argv, CommandModule } from 'yargs';
import { loadAverage, measurementEnvironment } from '../../../harness/machine.js';
import { gitCommit } from '../../../harness/run-record.js';
import { numericFigures } from '../../../report/bench-history/bench-record.js';
import { bootstrapRatio } from '../../../stats/two-sample/bootstrap-ratio.js';
import { inputError } from '../../../util/errors.js';
import { packageRoot } from '../../../util/paths.js';
import { createRandom } from '../../../util/random.js';

interface BenchCompareArguments {
  base: string;
  head?: string;
  bench: string;
  figure: string;
  rounds: number;
  threshold: number;
  args: string;
  json: boolean;
  record?: string;
}

/** Whether a larger value of the figure is better (rates) rather than worse (times). */
function higherIsBetter(figure: string): boolean {
  return /PerSecond|GBps|perSecond/.test(figure) || !/Seconds|Ms$|seconds|Bytes/.test(figure);
}

/** One run of `bench <what> --json` of a checkout; its figure. InputError when it fails or lacks the figure. */
function measure(checkout: string, bench: string, extra: string[], figure: string): number {
  let output: string;
  try {
    output = execFileSync(process.execPath, [join(checkout, 'bin', 'fairaudit'), 'bench', bench, '--json', ...extra], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 1 << 24,
    });
  } catch (error) {
    throw inputError({
      where: checkout,
      expected: `a built fairaudit whose "bench ${bench}" runs`,
      found: String((error as Error).message).slice(0, 200),
    });
  }
  const found = numericFigures(JSON.parse(output)).find(([name]) => name === figure);
  if (found === undefined)
    throw inputError({ where: '--figure', expected: `a figure of bench ${bench}`, found: figure });
  return found[1];
}

/**
 * `fairaudit bench compare BASE [HEAD]`: runs one bench of two built checkouts
 * interleaved in one sitting (BASE HEAD BASE HEAD ..., so load on a shared machine hits
 * both alike), gives the speed ratio head/base (geometric mean of the rounds' ratios, a
 * ratio below 1 is slower) with a 95% bootstrap interval, and says slower when the ratio
 * is below 1/(1 + threshold) and its interval excludes 1, faster in mirror, else no
 * change; exit 1 when slower.
 */
export const benchCompareCommand: CommandModule<object, BenchCompareArguments> = {
  command: 'compare <base> [head]',
  describe:
    'Compare the speed of two built checkouts, interleaved in one sitting (exit 1 on a slowdown beyond --threshold)',
  builder: (yargs: Argv) =>
    yargs
      .positional('base', { type: 'string', demandOption: true, describe: 'the base checkout (built)' })
      .positional('head', { type: 'string', describe: 'the head checkout (default: this one)' })
      .option('bench', { type: 'string', default: 'glr', describe: 'which bench command' })
      .option('figure', {
        type: 'string',
        default: 'bernoulli.updatesPerSecond',
        describe: 'the figure compared (a path in its JSON)',
      })
      .option('rounds', {
        type: 'number',
        default: 10,
        describe: 'interleaved rounds (one base and one head run each)',
      })
      .option('threshold', { type: 'number', default: 0.1, describe: 'the slowdown that counts (0.1: 10%)' })
      .option('args', {
        type: 'string',
        default: '',
        describe: 'extra flags for the bench, e.g. "--updates 1000000 --runs 3"',
      })
      .option('json', {
        type: 'boolean',
        default: false,
        describe: 'print the result as JSON',
      })
      .option('record', {
        type: 'string',
        describe: 'also append the result (both commits, machine, date, load) to this JSON-lines file',
      }) as unknown as Argv<BenchCompareArguments>,
  handler: (args) => {
    if (!(Number.isSafeInteger(args.rounds) && args.rounds >= 2))
      throw inputError({ where: '--rounds', expected: 'an integer >= 2', found: args.rounds });
    if (!(args.threshold > 0))
      throw inputError({ where: '--threshold', expected: 'a positive number', found: args.threshold });
    const head = args.head ?? packageRoot();
    for (const checkout of [args.base, head])
      if (!existsSync(join(checkout, 'dist', 'src', 'cli', 'main.js')))
        throw inputError({
          where: checkout,
          expected: 'a built fairaudit checkout (dist/ present: npm run build)',
          found: 'none',
        });
    if (args.record !== undefined && !existsSync(dirname(resolve(args.record))))
      throw inputError({ where: '--record', expected: 'a file in an existing folder', found: args.record });
    const extra = args.args.split(/\s+/).filter(Boolean);
    const loadBefore = loadAverage();
    const base: number[] = [];
    const headFigures: number[] = [];
    for (let round = 0; round < args.rounds; round++) {
      base.push(measure(args.base, args.bench, extra, args.figure));
      headFigures.push(measure(head, args.bench, extra, args.figure));
    }
    const higher = higherIsBetter(args.figure);
    // Speed ratio: head's speed over base's (a time's ratio inverted), so below 1 is slower.
    const interval = higher
      ? bootstrapRatio(base, headFigures, 0.95, 4000, createRandom(`bench compare ${args.figure}`))
      : bootstrapRatio(headFigures, base, 0.95, 4000, createRandom(`bench compare ${args.figure}`));
    const limit = 1 / (1 + args.threshold);
    const verdict =
      interval.ratio < limit && interval.high < 1
        ? 'slower'
        : interval.ratio > 1 + args.threshold && interval.low > 1
          ? 'faster'
          : 'no change';
    const result = {
      bench: args.bench,
      figure: args.figure,
      rounds: args.rounds,
      threshold: args.threshold,
      base,
      head: headFigures,
      speedRatio: interval,
      verdict,
    };
    if (args.record !== undefined) {
      const command =
        `fairaudit bench compare ${args.base} ${head} --bench ${args.bench} --figure ${args.figure} ` +
        `--rounds ${args.rounds}${extra.length > 0 ? ` "--args=${extra.join(' ')}"` : ''}`;
      const entry = {
        ...measurementEnvironment(command, gitCommit(head), loadBefore),
        baseCommit: gitCommit(args.base),
        ...result,
      };
      appendFileSync(args.record, `${JSON.stringify(entry)}\n`);
    }
    if (args.json) process.stdout.write(`${JSON.stringify(result)}\n`);
    else
      process.stdout.write(
        `bench ${args.bench} ${args.figure}: head/base speed ${interval.ratio.toFixed(3)} (95% bootstrap ` +
          `interval ${interval.low.toFixed(3)} .. ${interval.high.toFixed(3)}, ${args.rounds} interleaved ` +
          `rounds): ${verdict} at a ${args.threshold * 100}% threshold\n`,
      );
    if (verdict === 'slower') process.exitCode = 1;
  },
};

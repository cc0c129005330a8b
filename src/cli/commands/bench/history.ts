import { join } from 'node:path';
import type { Argv, CommandModule } from 'yargs';
import { DEFAULT_BENCH_STORE, readBenchRecords } from '../../../report/bench-history/bench-record.js';
import { HEADLINE_FIGURES, historyChartSpec, historyMarkdown } from '../../../report/bench-history/history-page.js';
import { writeFileAtomic } from '../../../util/atomic-write.js';
import { makeFolder } from '../../../util/make-folder.js';

interface BenchHistoryArguments {
  store: string;
  out: string;
}

/** `fairaudit bench history`: writes the benchmark history page and its chart from the record store. */
export const benchHistoryCommand: CommandModule<object, BenchHistoryArguments> = {
  command: 'history',
  describe: 'Write the benchmark history page (Markdown) and a Vega-Lite chart of each figure across recorded runs',
  builder: (yargs: Argv) =>
    yargs
      .option('store', {
        type: 'string',
        default: DEFAULT_BENCH_STORE,
        describe: 'the records (bench <what> --record)',
      })
      .option('out', {
        type: 'string',
        default: 'docs/benchmarks.md',
        describe: 'the page; the chart goes beside it',
      }) as unknown as Argv<BenchHistoryArguments>,
  handler: (args) => {
    const records = readBenchRecords(args.store);
    const chartFile = 'benchmarks/history.vl.json';
    const folder = join(args.out, '..');
    makeFolder(join(folder, 'benchmarks'));
    writeFileAtomic(
      join(folder, chartFile),
      `${JSON.stringify(historyChartSpec(records, HEADLINE_FIGURES), null, 2)}\n`,
    );
    writeFileAtomic(
      args.out,
      historyMarkdown(records, HEADLINE_FIGURES, chartFile, `fairaudit bench history --store ${args.store}`),
    );
    process.stdout.write(`bench history: ${records.length} records -> ${args.out}, ${join(folder, chartFile)}\n`);
  },
};

import type { Argv, CommandModule } from 'yargs';
import { loadAverage } from '../../../harness/machine.js';
import { appendBenchRecords, benchRecords, DEFAULT_BENCH_STORE } from '../../../report/bench-history/bench-record.js';

/** The figures a bench printed as JSON: one document, or JSON lines (bench pir: one per size, keyed by its entries). */
function parseFigures(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    const lines = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    return Object.fromEntries(
      lines.map((line, i) => [line.entries === undefined ? String(i) : `entries${line.entries}`, line]),
    );
  }
}

/**
 * withRecording(command) gives a bench command `--record [STORE]`: the command runs with
 * --json, its output is printed as usual, and each numeric figure is appended to the
 * store (JSON lines; docs/benchmarks/history.jsonl is the history page's) with its environment: commit,
 * dirty flag, Node version, CPU model, cores, load average before and after, date, and
 * the repeats behind it (the command's --runs or --repetitions).
 */
// biome-ignore lint/suspicious/noExplicitAny: wraps bench commands of any argument type
export function withRecording(command: CommandModule<any, any>): CommandModule<any, any> {
  const name = String(command.command).split(' ')[0];
  return {
    ...command,
    builder: (yargs: Argv) => {
      const built = (typeof command.builder === 'function' ? command.builder(yargs) : yargs) as Argv;
      return built.option('record', {
        type: 'string',
        describe:
          `append the figures with their environment to this store of JSON lines (the history page ` +
          `reads ${DEFAULT_BENCH_STORE})`,
      });
    },
    handler: async (args) => {
      if (args.record === undefined) return command.handler(args);
      const loadBefore = loadAverage();
      let printed = '';
      const write = process.stdout.write.bind(process.stdout);
      process.stdout.write = ((chunk: string | Uint8Array) => {
        printed += String(chunk);
        return true;
      }) as typeof process.stdout.write;
      try {
        await command.handler({ ...args, json: true });
      } finally {
        process.stdout.write = write;
      }
      write(printed);
      const repeats = args.runs ?? args.repetitions ?? null;
      const records = benchRecords(
        name,
        parseFigures(printed),
        typeof repeats === 'number' ? repeats : null,
        loadBefore,
      );
      const store = args.record === '' ? DEFAULT_BENCH_STORE : String(args.record);
      appendBenchRecords(store, records);
      process.stderr.write(`bench ${name}: ${records.length} figures recorded in ${store}\n`);
    },
  };
}

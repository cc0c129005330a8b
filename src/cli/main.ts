import yargs, { type CommandModule } from 'yargs';
import { fairauditVersion } from '../harness/run-record.js';
import { InputError, isInputError } from '../util/errors.js';
import { exitQuietlyOnBrokenPipe } from './broken-pipe.js';
import { commands } from './commands/index.js';
import { withReferenceCommand } from './commands/reference.js';
import { registerBuiltIns } from './registry.js';
import { requireOptionValues } from './require-option-values.js';

/**
 * The fairaudit command line. Each command lives in its own file under commands/,
 * thin: parse, call the library, print. Bad input exits 2 with a message naming
 * the file, key, row or flag; internal failures exit 1 with the stack. A reader that
 * closes stdout early (`| head`) ends the command quietly (exitQuietlyOnBrokenPipe).
 * `fairaudit --version` prints the package version and exits 0.
 */
export async function main(argv: string[]): Promise<number> {
  exitQuietlyOnBrokenPipe(process.stdout);
  if (argv.length === 1 && argv[0] === '--version') {
    process.stdout.write(`fairaudit ${fairauditVersion()}\n`);
    return 0;
  }
  registerBuiltIns();
  const parser = yargs(argv)
    .scriptName('fairaudit')
    .usage('$0 <command> [options]')
    .strict()
    .demandCommand(1, 'fairaudit needs a command; see --help')
    .recommendCommands()
    .help()
    .alias('help', 'h')
    .version(false)
    .wrap(Math.min(110, process.stdout.columns ?? 110))
    .fail((message, error) => {
      // Throwing here stops yargs before any handler runs: a misspelt flag never
      // half-runs a command.
      // yargs' own validation failures (YError: a flag without its value, an unknown
      // flag) are bad input like the message-only ones; anything else is a handler's error.
      if (error && error.name !== 'YError') throw error;
      throw new InputError(`${message ?? error?.message}\nRun "fairaudit --help" for the commands and their flags.`);
    });
  for (const command of withReferenceCommand(commands)) parser.command(requireOptionValues(command) as CommandModule);
  try {
    await parser.parseAsync();
  } catch (error) {
    if (isInputError(error)) {
      process.stderr.write(`fairaudit: ${error.message}\n`);
      return 2;
    }
    process.stderr.write(`fairaudit: internal error\n${(error as Error)?.stack ?? String(error)}\n`);
    return 1;
  }
  return process.exitCode === undefined ? 0 : Number(process.exitCode);
}

import type { Argv, CommandModule } from 'yargs';
import { requireOptionValues } from './require-option-values.js';

/**
 * commandGroup(name, describe, subcommands) is a command that only holds subcommands
 * (`fairaudit data list|info|fetch`, `fairaudit pir serve|audit`): it registers them
 * and, when none is given, fails with "NAME needs a subcommand; see "fairaudit NAME
 * --help"" (an InputError, exit 2, through main's fail handler). The command is the
 * bare name, not "NAME <command>": a required positional would make yargs fail first
 * with its own "Not enough non-option arguments" and the message above would never show.
 */
export function commandGroup(
  name: string,
  describe: string,
  // biome-ignore lint/suspicious/noExplicitAny: subcommands differ in their argument types
  subcommands: readonly CommandModule<any, any>[],
): CommandModule {
  return {
    command: name,
    describe,
    builder: (yargs: Argv) => {
      for (const subcommand of subcommands) yargs.command(requireOptionValues(subcommand));
      return yargs.demandCommand(1, `${name} needs a subcommand; see "fairaudit ${name} --help"`);
    },
    handler: () => {},
  };
}

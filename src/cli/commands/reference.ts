import type { Argv, CommandModule } from 'yargs';
import { configReference } from '../../harness/config-reference.js';
import { cliReference } from '../cli-reference.js';

interface ReferenceArguments {
  what: 'cli' | 'config';
}

/**
 * withReferenceCommand(commands) is the command list with `fairaudit reference cli|config`
 * appended: it prints the generated Markdown reference of every command and flag
 * (docs/cli-reference.md) or of every config key (docs/config-reference.md). It takes the
 * list as an argument so that the reference covers exactly the commands main registers.
 * @param commands Every other command, in the order `fairaudit --help` lists them.
 * @returns The commands followed by the reference command.
 * @example
 * withReferenceCommand(commands).at(-1)?.command // 'reference <what>'
 */
// biome-ignore lint/suspicious/noExplicitAny: command modules differ in their argument types
export function withReferenceCommand(commands: readonly CommandModule<any, any>[]): CommandModule<any, any>[] {
  const referenceCommand: CommandModule<object, ReferenceArguments> = {
    command: 'reference <what>',
    describe: 'Print the generated Markdown reference of every command and flag (cli) or config key (config)',
    builder: (yargs: Argv) =>
      yargs.positional('what', {
        type: 'string',
        choices: ['cli', 'config'],
        describe: 'cli: docs/cli-reference.md; config: docs/config-reference.md',
      }) as unknown as Argv<ReferenceArguments>,
    handler: (args) => {
      process.stdout.write(args.what === 'cli' ? cliReference(all as CommandModule[]) : configReference());
    },
  };
  // biome-ignore lint/suspicious/noExplicitAny: command modules differ in their argument types
  const all: CommandModule<any, any>[] = [...commands, referenceCommand];
  return all;
}

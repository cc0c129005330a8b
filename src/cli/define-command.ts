import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';

/** What defineCommand takes: a command whose handler's arguments are typed by its builder. */
export interface CommandDefinition<T> {
  readonly command: string | readonly string[];
  readonly describe: string;
  readonly builder: (yargs: Argv) => Argv<T>;
  readonly handler: (args: ArgumentsCamelCase<T>) => void | Promise<void>;
}

/**
 * defineCommand(definition) is a yargs command module whose handler's arguments have the
 * type the builder's options give them (yargs infers it), so no command keeps a
 * hand-written copy of its flags or casts its parser. O(1).
 * @param definition the command string, description, builder and handler
 * @returns the command module to register
 * @example export const mergeCommand = defineCommand({
 *   command: 'merge <folders..>', describe: 'Merge shards',
 *   builder: (yargs) => yargs.positional('folders', { type: 'string', array: true, demandOption: true }),
 *   handler: (args) => merge(args.folders),
 * });
 */
export function defineCommand<T>(definition: CommandDefinition<T>): CommandModule<object, T> {
  return { ...definition, command: definition.command as string | string[] };
}

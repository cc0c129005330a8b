import type { Argv } from 'yargs';

/**
 * ArgumentsOf<typeof builder> is the type of the arguments a command's builder defines,
 * as yargs infers it from the options (so a command's handler needs no hand-kept copy of
 * its flags). Use it as the second type argument of CommandModule.
 * @example const builder = (yargs: Argv) => yargs.option('json', { type: 'boolean' });
 *   export const command: CommandModule<object, ArgumentsOf<typeof builder>> = { builder, … };
 */
export type ArgumentsOf<B> = B extends (yargs: Argv) => Argv<infer T> ? T : never;

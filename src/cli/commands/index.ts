import type { CommandModule } from 'yargs';
import { benchCommand } from './bench.js';
import { respirCommand } from './respir.js';

/**
 * Every fairaudit command, in the order --help lists them. A command file exports
 * one yargs CommandModule; add it here.
 */
// biome-ignore lint/suspicious/noExplicitAny: command modules differ in their argument types
export const commands: CommandModule<any, any>[] = [respirCommand, benchCommand];

import type { CommandModule } from 'yargs';
import { benchPirCommand } from './pir.js';

/** The `fairaudit bench` subcommands (glr, runner, pir, ...): one file each, listed here. */
// biome-ignore lint/suspicious/noExplicitAny: command modules differ in their argument types
export const benchCommands: CommandModule<any, any>[] = [benchPirCommand];

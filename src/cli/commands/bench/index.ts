import type { CommandModule } from 'yargs';
import { benchCalibrateCommand } from './calibrate.js';
import { benchGlrCommand } from './glr.js';
import { benchPirCommand } from './pir.js';
import { benchPaperACommand } from './paper-a.js';
import { benchRunnerCommand } from './runner.js';
import { benchRespirCommand } from '../respir.js';

/** The `fairaudit bench` subcommands (glr, runner, pir, ...): one file each, listed here. */
// biome-ignore lint/suspicious/noExplicitAny: command modules differ in their argument types
export const benchCommands: CommandModule<any, any>[] = [
  benchGlrCommand,
  benchCalibrateCommand,
  benchRunnerCommand,
  benchPaperACommand,
  benchPirCommand,
  benchRespirCommand,
];

import type { CommandModule } from 'yargs';
import { benchCalibrateCommand } from './calibrate.js';
import { benchGlrCommand } from './glr.js';
import { benchObliviousCommand } from './oblivious.js';
import { benchPirCommand } from './pir.js';
import { benchPaperACommand } from './paper-a.js';
import { benchRunnerCommand } from './runner.js';
import { benchRespirCommand } from '../respir.js';
import { benchCompareCommand } from './compare.js';
import { benchHistoryCommand } from './history.js';
import { withRecording } from './record.js';

/** The `fairaudit bench` subcommands (glr, runner, pir, ...; each with --record), then compare and history: one file
 * each. */
// biome-ignore lint/suspicious/noExplicitAny: command modules differ in their argument types
export const benchCommands: CommandModule<any, any>[] = [
  ...[
    benchGlrCommand,
    benchCalibrateCommand,
    benchRunnerCommand,
    benchPaperACommand,
    benchPirCommand,
    benchObliviousCommand,
    benchRespirCommand,
  ].map(withRecording),
  benchCompareCommand,
  benchHistoryCommand,
];

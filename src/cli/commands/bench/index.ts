import type { CommandModule } from 'yargs';
import { benchRespirCommand } from '../respir.js';
import { benchCalibrateCommand } from './calibrate.js';
import { benchCompareCommand } from './compare.js';
import { benchGlrCommand } from './glr.js';
import { benchHistoryCommand } from './history.js';
import { benchObliviousCommand } from './oblivious.js';
import { benchPaperACommand } from './paper-a.js';
import { benchPirCommand } from './pir.js';
import { withRecording } from './record.js';
import { benchRunnerCommand } from './runner.js';

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

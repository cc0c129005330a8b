import type { CommandModule } from 'yargs';
import { auditCommand } from './audit.js';
import { benchCommand } from './bench.js';
import { calibrateCommand } from './calibrate.js';
import { compareCommand } from './compare.js';
import { dataCommand } from './data.js';
import { exportCommand } from './export.js';
import { glrCommand } from './glr.js';
import { mergeCommand } from './merge.js';
import { modelsCommand } from './models.js';
import { pirCommand } from './pir.js';
import { planCommand } from './plan.js';
import { reportCommand } from './report.js';
import { reproduceCommand } from './reproduce.js';
import { respirCommand } from './respir.js';
import { runCommand } from './run.js';

/**
 * Every fairaudit command, in the order --help lists them. A command file exports
 * one yargs CommandModule; add it here.
 */
// biome-ignore lint/suspicious/noExplicitAny: command modules differ in their argument types
export const commands: CommandModule<any, any>[] = [
  glrCommand,
  auditCommand,
  calibrateCommand,
  planCommand,
  runCommand,
  mergeCommand,
  respirCommand,
  reportCommand,
  compareCommand,
  exportCommand,
  reproduceCommand,
  dataCommand,
  pirCommand,
  modelsCommand,
  benchCommand,
];

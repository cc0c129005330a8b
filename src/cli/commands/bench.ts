import type { Argv, CommandModule } from 'yargs';
import { benchCommands } from './bench/index.js';

/** `fairaudit bench <what>`: speed figures printed as text or JSON; never timed tests. */
export const benchCommand: CommandModule = {
  command: 'bench <command>',
  describe: 'Measure speed (GLR updates, runner replicates, PIR answers) and print the figures',
  builder: (yargs: Argv) => {
    for (const command of benchCommands) yargs.command(command);
    return yargs.demandCommand(1, 'bench needs a subcommand; see "fairaudit bench --help"');
  },
  handler: () => {},
};

import { commandGroup } from '../command-group.js';
import { benchCommands } from './bench/index.js';

/** `fairaudit bench <what>`: speed figures printed as text or JSON; never timed tests. */
export const benchCommand = commandGroup(
  'bench',
  'Measure speed (GLR updates, runner replicates, PIR answers) and print the figures',
  benchCommands,
);

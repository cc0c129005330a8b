import { checkIntegerFlag } from './check-flag.js';

/**
 * Flags that several commands share, defined once so that their meaning and help text
 * stay the same everywhere (pass them to yargs' .option(name, definition)).
 */

/** --json: print the result as JSON instead of text. */
export const jsonOption = { type: 'boolean', default: false, describe: 'print JSON' } as const;

/** --quiet: no progress bar. */
export const quietOption = { type: 'boolean', default: false, describe: 'no progress bar' } as const;

/** --data-dir: where the datasets are, instead of FAIRAUDIT_DATA_DIR. */
export const dataDirectoryOption = {
  type: 'string',
  describe: 'a local dataset mirror with the canonical file names (overrides FAIRAUDIT_DATA_DIR)',
} as const;

/** The most worker threads any command starts. */
export const MAX_THREADS = 1024;

/**
 * checkThreads(value) is the one check of a thread count: an integer in [1, MAX_THREADS],
 * else an InputError naming --threads. O(1).
 * @param value the parsed --threads
 * @returns value
 * @example checkThreads(2) // 2
 */
export function checkThreads(value: number): number {
  return checkIntegerFlag('--threads', value, 1, MAX_THREADS);
}

/** --threads: worker threads (absent: one per core), checked once as yargs parses it. */
export const threadsOption = {
  type: 'number',
  describe: 'worker threads (default: one per core)',
  coerce: checkThreads,
} as const;

/** The results folder that `report` and `compare` read. */
export const resultsFolderPositional = {
  type: 'string',
  demandOption: true,
  describe: 'results/<experiment> folder written by "fairaudit run"',
} as const;

/** Where `report` and `compare` find the published numbers. */
export const publishedOption = {
  type: 'string',
  describe:
    'folder of published-number JSON files, or one file (default: papers/<paper>/published.json of every ' +
    'registered paper)',
} as const;

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

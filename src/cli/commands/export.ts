import type { Argv, CommandModule } from 'yargs';
import { EXPORT_FORMATS, type ExportFormat, exportReplicates } from '../../report/export-replicates.js';

interface ExportArguments {
  results: string;
  format: ExportFormat;
  out?: string;
}

/**
 * `fairaudit export RESULTS_DIR --format csv|parquet`: one row per replicate with every
 * resolved setting as a column, for pandas, polars or R (docs/report.md).
 */
export const exportCommand: CommandModule<object, ExportArguments> = {
  command: 'export <results>',
  describe: 'Write one row per replicate, every resolved setting a column, as CSV or Parquet',
  builder: (yargs: Argv) =>
    yargs
      .positional('results', { type: 'string', demandOption: true, describe: 'A results folder of "fairaudit run"' })
      .option('format', { choices: EXPORT_FORMATS, default: 'csv' as const, describe: 'File format' })
      .option('out', { type: 'string', describe: 'Output file (default <results>/replicates.<format>)' })
      .example(
        '$0 export results/linked-tolerances --format parquet',
        'results/linked-tolerances/replicates.parquet',
      ) as unknown as Argv<ExportArguments>,
  handler: async (args) => {
    const written = await exportReplicates(args.results, args.format, args.out);
    console.log(`export: ${written.rows} replicates × ${written.columns} columns -> ${written.path}`);
  },
};

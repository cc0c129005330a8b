import { isAbsolute, relative } from 'node:path';
import type { Argv } from 'yargs';
import { paperFolder, writeReport } from '../../report/write-report.js';
import { inputError } from '../../util/errors.js';
import { publishedOption, resultsFolderPositional } from '../common-options.js';
import { defineCommand } from '../define-command.js';
import { endOnInterruption } from '../interruption.js';

/** A path as the user would like to read it: relative to here when inside here. */
function shown(path: string): string {
  const near = relative(process.cwd(), path);
  return near === '' ? '.' : near.startsWith('..') || isAbsolute(near) ? path : near;
}

/** `fairaudit report RESULTS_DIR`: tables, charts and a self-contained report.html. */
export const reportCommand = defineCommand({
  command: 'report <results>',
  describe: 'Summarise a results folder: tables (Arrow, CSV, Markdown), charts (Vega-Lite, SVG, PNG) and report.html',
  builder: (yargs: Argv) =>
    yargs
      .positional('results', resultsFolderPositional)
      .option('published', publishedOption)
      .option('sigmas', {
        type: 'number',
        default: 3,
        describe: 'Monte Carlo standard errors allowed when comparing with published cells',
      })
      .option('png', {
        type: 'boolean',
        default: true,
        describe: 'also rasterise each chart to PNG (--no-png to skip)',
      }),
  handler: async (args) => {
    if (!(args.sigmas > 0)) throw inputError({ where: '--sigmas', expected: 'a positive number', found: args.sigmas });
    const watch = endOnInterruption(args.results);
    try {
      await writeReportOf(args);
    } finally {
      watch.dispose();
    }
  },
});

/** What the report command reads of its flags. */
interface ReportArguments {
  readonly results: string;
  readonly published?: string | undefined;
  readonly sigmas: number;
  readonly png: boolean;
}

/** The report command's work, with SIGTERM/SIGINT watched. */
async function writeReportOf(args: ReportArguments): Promise<void> {
  const folder = paperFolder(args.results);
  if (folder !== null) {
    // A paper-level reproduction folder (results/paper-b): rebuilt from report-layout.json.
    const output = await folder.layout.write(args.results, folder.options, { png: args.png });
    const within = output.comparison.filter((row) => row.status === 'within').length;
    console.log(
      `report: ${output.experiment} (paper-level ` +
        `folder), ${output.files.filter((file) => file.endsWith('.svg')).length} charts, ${output.files.length} files`,
    );
    if (output.comparison.length > 0)
      console.log(
        `  published cells: ${within}/${output.comparison.length} within tolerance (details: fairaudit compare)`,
      );
    console.log(`  ${shown(output.reportPath)}`);
    return;
  }
  const output = await writeReport(args.results, {
    publishedFolder: args.published,
    sigmas: args.sigmas,
    png: args.png,
    onNotice: (notice) => process.stderr.write(`fairaudit: notice: ${notice}\n`),
  });
  const within = output.comparison.filter((row) => row.status === 'within').length;
  const charts = output.files.filter((file) => file.endsWith('.svg')).length;
  console.log(
    `report: ${output.results.experiment} (${output.kind.name}), ${output.summaries.length} cells, ` +
      `${output.results.rowCount} replicate rows`,
  );
  console.log(`  ${charts} charts, ${output.files.length} files under ${shown(output.results.directory)}`);
  if (output.comparison.length > 0)
    console.log(
      `  published cells: ${within}/${output.comparison.length} within tolerance (details: fairaudit compare)`,
    );
  console.log(`  ${shown(output.reportPath)}`);
}

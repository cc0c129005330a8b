import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../util/atomic-write.js';
import { inputError } from '../util/errors.js';
import { acquireFolderLock, thisProcess } from '../util/folder-lock.js';
import { packageRoot } from '../util/paths.js';
import type { CellSummary } from './cell-results.js';
import { writeChart } from './charts/write-chart.js';
import { type ComparisonRow, cellsForExperiment, comparePublished, comparisonTable } from './compare-published.js';
import type { KindReporter } from './kind-reporter.js';
import { findKindReporter } from './kind-reporters.js';
import { type PaperFolderLayout, type PaperLayoutParts, readPaperLayoutManifest } from './paper-layout.js';
import { findPaperLayout, paperLayouts } from './paper-layouts.js';
import { loadPublishedFiles, loadPublishedNumbers } from './published.js';
import { type RenderedChart, type ReportContent, reportHtml } from './report-html.js';
import { genericCellStatuses } from './reproduction-status.js';
import { type ResultsFolder, readResultsFolder } from './results-folder.js';
import { summarizeResults, summaryTable } from './summarize-results.js';
import type { SummaryTable } from './summary-table.js';
import { writeTable } from './write-table.js';

/** Options of summarize and writeReport. */
export interface ReportOptions {
  /** Folder of published-number files, or one file (default: the published numbers of every registered paper layout).
   * */
  publishedFolder?: string;
  /** Standard errors allowed for Monte Carlo cells (default 3). */
  sigmas?: number;
  /** Write PNGs beside the SVGs (default true). */
  png?: boolean;
  /** Clock for the "generated" stamp (tests pass a fixed date). */
  now?: Date;
  /** writeReport: called with a notice for the user (a stale lock of the folder taken over). */
  onNotice?: (notice: string) => void;
}

/** What a summarised run and its comparison hold. */
export interface SummarisedRun {
  results: ResultsFolder;
  kind: KindReporter;
  summaries: CellSummary[];
  comparison: ComparisonRow[];
  /** Published cells that name no experiment (cannot be compared anywhere). */
  unassignedPublishedCells: number;
  /** What the folder's paper layout (report-layout.json) adds, or null without one. */
  paper: PaperLayoutParts | null;
}

/** What writeReport wrote. */
export interface ReportOutput extends SummarisedRun {
  reportPath: string;
  files: string[];
}

/**
 * summarize(directory, options) runs the first stages of the report pipeline:
 * open and check the results folder (stage 1: run.json, the SHA-256 of results.arrow,
 * its columns), find its kind (2), summarise each cell from the record batches, each
 * row checked as read (3), and compare with the published numbers of that experiment
 * (4), then lay out the paper's parts when report-layout.json names a paper layout
 * (src/report/paper-layouts.ts). Throws InputError for a missing, empty, damaged,
 * unchecked (written before checksums) or unknown-kind folder, for results of an
 * experiment the folder's layout does not lay out, for bad published files and for an
 * unknown or bad layout. O(rows) time, O(cells) memory for kinds that accumulate.
 * @param directory a results folder
 * @param options where the published numbers are and the sigmas allowed
 * @returns the cells' summaries and their comparison with published numbers
 * @example
 * const summary = await summarize('results/quickstart');
 */
export async function summarize(directory: string, options: ReportOptions = {}): Promise<SummarisedRun> {
  const results = await readResultsFolder(directory);
  const kind = findKindReporter(results.kind, `${join(directory, 'results.arrow')}: column kind`);
  const manifest = readPaperLayoutManifest(results.directory);
  const layout =
    manifest === null ? null : findPaperLayout(manifest.layout, join(results.directory, 'report-layout.json'));
  if (layout !== null && !layout.experiments.includes(results.experiment)) {
    // A results.arrow of another experiment in a paper's folder once made `compare` pass with nothing compared.
    throw inputError({
      where: join(results.directory, 'report-layout.json'),
      expected: `results of an experiment of layout ${layout.name} (${layout.experiments.join(', ')})`,
      found: `results of experiment ${results.experiment}`,
    });
  }
  const summaries = await summarizeResults(results, kind);
  const files =
    options.publishedFolder === undefined
      ? loadPublishedFiles(
          paperLayouts().flatMap((layout) => (layout.published === undefined ? [] : [layout.published])),
        )
      : loadPublishedNumbers(options.publishedFolder, '--published');
  const cells = cellsForExperiment(files, results.experiment);
  const comparison = comparePublished(cells, summaries, kind, { sigmas: options.sigmas });
  const unassignedPublishedCells = files.reduce(
    (total, file) => total + file.cells.filter((cell) => cell.experiment === undefined).length,
    0,
  );
  let paper: PaperLayoutParts | null = null;
  if (manifest !== null && layout !== null) {
    const config = results.run?.raw.config;
    paper = await layout.build({
      directory: results.directory,
      experiment: results.experiment,
      summaries,
      config:
        config !== null && typeof config === 'object' && !Array.isArray(config)
          ? (config as Record<string, unknown>)
          : null,
      comparison,
      publishedCells: files.flatMap((file) => file.cells),
      options: manifest.options,
    });
  }
  return { results, kind, summaries, comparison, unassignedPublishedCells, paper };
}

/**
 * paperFolder(directory) is the paper-level layout of a reproduction folder that has
 * report-layout.json but no results.arrow of its own (paper B's results/paper-b), with
 * the options it recorded; null for any other folder (a results folder, or nothing
 * there: readResultsFolder then says what is wrong). Throws InputError for a bad
 * manifest or a layout that cannot report a folder. O(manifest size).
 */
export function paperFolder(directory: string): { layout: PaperFolderLayout; options: Record<string, unknown> } | null {
  if (existsSync(join(directory, 'results.arrow'))) return null;
  const manifest = existsSync(directory) ? readPaperLayoutManifest(directory) : null;
  if (manifest === null) return null;
  const where = join(directory, 'report-layout.json');
  const layout = findPaperLayout(manifest.layout, where);
  if (layout.folder === undefined) {
    throw inputError({
      where,
      expected: `a folder with results.arrow (layout ${layout.name} reports results folders)`,
      found: 'no results.arrow',
    });
  }
  return { layout: layout.folder, options: manifest.options };
}

function flatten(value: unknown, prefix: string, into: Array<[string, string]>): void {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, inner] of Object.entries(value)) flatten(inner, prefix ? `${prefix}.${key}` : key, into);
  } else {
    into.push([prefix, typeof value === 'string' ? value : JSON.stringify(value)]);
  }
}

function dependencyVersion(name: string): string {
  try {
    return JSON.parse(readFileSync(join(packageRoot(), 'node_modules', name, 'package.json'), 'utf8')).version;
  } catch {
    return 'unknown';
  }
}

/** The provenance keys report.html shows: those equal for equal runs of one build. */
const STABLE_PROVENANCE = new Set(['fairauditVersion', 'nodeVersion', 'gitCommit', 'masterSeed', 'shard']);

function provenanceRows(run: SummarisedRun): Array<[string, string]> {
  const { results } = run;
  const rows: Array<[string, string]> = [
    ['experiment', results.experiment],
    ['kind', results.kind],
    ['replicate rows', String(results.rowCount)],
    ['cells', String(run.summaries.length)],
    ['varying settings', results.varyingSettings.join(', ') || '(none)'],
  ];
  if (results.run) {
    const planned = results.run.plannedCells;
    if (planned.length > 0) {
      const replicates = planned.reduce((total, cell) => total + (cell.replicates ?? 0), 0);
      rows.push(['plan size', `${planned.length} cells${replicates > 0 ? `, ${replicates} replicates` : ''}`]);
    }
    // Only what two runs with equal results share: their times, machine, load and cache
    // state stay in run.json's provenance, so equal runs give byte-equal reports.
    const stable = Object.fromEntries(
      Object.entries(results.run.provenance ?? {}).filter(([key]) => STABLE_PROVENANCE.has(key)),
    );
    flatten(stable, '', rows);
    rows.push(['times, machine, load, cache', 'in run.json (provenance)']);
  }
  rows.push([
    'reporter',
    `vega ${dependencyVersion('vega')}, vega-lite ${dependencyVersion('vega-lite')}, ` +
      `@resvg/resvg-js ${dependencyVersion('@resvg/resvg-js')}`,
  ]);
  return rows;
}

/**
 * writeReport(directory, options) runs the whole report pipeline on a results folder:
 * summarise and compare (summarize), write summary and paper tables as Arrow, CSV
 * and Markdown (stage 5), build, render and save the charts as Vega-Lite JSON, SVG
 * and PNG (6), and write the self-contained report.html (7). When the folder's
 * report-layout.json names a paper layout, its tables, charts (instead of the kind's),
 * annotated comparison (tables/<id>.*, shown in report.html) and notices join in. Throws InputError for
 * bad input (exit 2). O(rows + cells + chart pixels).
 * @param directory a results folder
 * @param options where the published numbers are, the sigmas allowed, progress
 * @returns the files written (tables, charts, report.html)
 * @example
 * await writeReport('results/quickstart');
 */
export async function writeReport(directory: string, options: ReportOptions = {}): Promise<ReportOutput> {
  // One writer per folder: a run writing here meanwhile would replace results.arrow under the report.
  // (A folder that is not there is not made: summarize says what is missing.)
  const lock =
    existsSync(directory) && statSync(directory).isDirectory()
      ? acquireFolderLock(directory, '', `fairaudit report ${directory}`, thisProcess, 'then run the report again')
      : null;
  if (lock?.notice !== undefined) options.onNotice?.(lock.notice);
  try {
    return await writeReportFiles(await summarize(directory, options), options);
  } finally {
    lock?.release();
  }
}

/** Stages 5–7 of writeReport, with the folder locked. */
async function writeReportFiles(run: SummarisedRun, options: ReportOptions): Promise<ReportOutput> {
  const { results, kind, summaries } = run;
  const folder = results.directory;
  const files: string[] = [];

  const summary = summaryTable(summaries, results.varyingSettings, kind, `Summary per cell: ${results.experiment}`);
  files.push(...writeTable(folder, summary));
  const paperTables: SummaryTable[] = run.paper?.tables ?? [];
  for (const table of paperTables) files.push(...writeTable(join(folder, 'tables'), table));

  const charts: RenderedChart[] = [];
  let pngProblem: string | null = null;
  const chartSpecs = run.paper?.charts ?? kind.charts?.(summaries, results.varyingSettings, results.experiment) ?? [];
  for (const chart of chartSpecs) {
    const written = await writeChart(folder, chart, options.png !== false && pngProblem === null);
    files.push(...written.files);
    pngProblem ??= written.pngProblem;
    charts.push(written.rendered);
  }

  let comparison: ReportContent['comparison'] = null;
  if (run.comparison.length > 0) {
    const generic = comparisonTable(run.comparison, results.experiment);
    files.push(...writeTable(folder, generic));
    const annotated = run.paper?.comparisonTable;
    if (annotated !== undefined) files.push(...writeTable(join(folder, 'tables'), annotated));
    const statuses = run.paper?.statuses ?? genericCellStatuses(run.comparison, run.paper?.reasons);
    comparison = { rows: run.comparison, table: annotated ?? generic, statuses };
  }
  const notices: string[] = [...(run.paper?.notices ?? [])];
  if (pngProblem !== null) notices.push(`PNG files were not written (${pngProblem}); the SVG charts are complete.`);
  if (results.run === null)
    notices.push('This results folder has no run.json: provenance is limited to results.arrow.');
  if (run.comparison.length === 0)
    notices.push(`No published cells name the experiment "${results.experiment}"; nothing to compare.`);
  if (run.unassignedPublishedCells > 0) {
    notices.push(
      `${run.unassignedPublishedCells} published cells name no experiment; add "experiment" and "where" to them ` +
        `to compare them (docs/report.md).`,
    );
  }
  const html = reportHtml({
    experiment: results.experiment,
    kind: kind.name,
    kindDescription: run.paper?.description ? `${run.paper.description} ${kind.description}` : kind.description,
    // A clock time only when asked for (tests): otherwise equal runs give byte-equal reports.
    generatedAt: options.now === undefined ? 'from results.arrow and run.json' : options.now.toISOString(),
    provenance: provenanceRows(run),
    config: results.run?.raw.config ?? null,
    summary,
    paperTables,
    charts,
    comparison,
    notices,
  });
  const reportPath = join(folder, 'report.html');
  writeFileAtomic(reportPath, html);
  files.push(reportPath);
  return { ...run, reportPath, files };
}

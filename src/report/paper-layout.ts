import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../util/atomic-write.js';
import { inputError } from '../util/errors.js';
import { parseJsonUntrusted } from '../util/parse-untrusted.js';
import { MAX_JSON_FILE_BYTES, readFileCapped } from '../util/read-capped.js';
import type { CellSummary } from './cell-results.js';
import type { ChartSpec } from './charts/chart-spec.js';
import type { ComparisonRow } from './compare-published.js';
import type { PublishedCell } from './published.js';
import type { CellStatus } from './reproduction-status.js';
import type { SummaryTable } from './summary-table.js';

/** The file in a results folder that names its paper layout: report-layout.json. */
export const PAPER_LAYOUT_FILE = 'report-layout.json';

/**
 * report-layout.json: which paper layout rebuilds this folder's paper tables, figures
 * and annotated comparison, and what that layout needs to know about the run (for
 * paper A: where each pool came from). Written by `fairaudit reproduce`; read by
 * `fairaudit report` and `fairaudit compare`.
 */
export interface PaperLayoutManifest {
  /** A registered layout name ("paper-a"). */
  layout: string;
  /** The layout's own options, as JSON (each layout checks its own). */
  options: Record<string, unknown>;
}

/** What a paper layout reads: the run's summarised cells and its comparison. */
export interface PaperLayoutInput {
  /** The results folder (absolute). */
  directory: string;
  experiment: string;
  summaries: CellSummary[];
  /** The run's resolved config from run.json, or null. */
  config: Record<string, unknown> | null;
  comparison: ComparisonRow[];
  /** Every published cell loaded for the comparison. */
  publishedCells: PublishedCell[];
  options: Record<string, unknown>;
}

/** What a paper layout adds to the report of a run. */
export interface PaperLayoutParts {
  /** A sentence put before the kind's description ("CALIBRATED SYNTHETIC DATA ..."). */
  description?: string;
  /** Notices shown at the top of report.html ("ACS not reproduced: ..."). */
  notices: string[];
  /** Paper tables, in order (written under tables/ and shown in report.html). */
  tables: SummaryTable[];
  /** The paper's charts; when given they replace the kind's generic charts. */
  charts?: ChartSpec[];
  /**
   * The comparison laid out with the paper's reading of each row (a reason column);
   * written under tables/ and shown in report.html instead of the generic table.
   */
  comparisonTable?: SummaryTable;
  /** Why each published cell differs or is not reproduced, by cell id (for `compare`). */
  reasons?: Record<string, string>;
  /** Each published cell's status for readers (reproduced, differs, synthetic, ...); generic when absent. */
  statuses?: CellStatus[];
}

/** What a paper-level folder (no results.arrow of its own) compares: experiment, rows, notices. */
export interface PaperFolderComparison {
  experiment: string;
  comparison: ComparisonRow[];
  notices: string[];
  /** Each published cell's status and why (every cell of the paper's tables, compared or not). */
  statuses: CellStatus[];
  /** "status: why" of the cells that are not reproduced, by id (for `compare`). */
  reasons?: Record<string, string>;
}

/** What writing a paper-level folder's report produced. */
export interface PaperFolderReport extends PaperFolderComparison {
  reportPath: string;
  files: string[];
}

/**
 * A reproduction folder whose report is assembled from several parts rather than one
 * results.arrow (paper B's results/paper-b: analytic tables, our models' Table 2, links
 * to the Monte Carlo runs under runs/). `report` and `compare` call these when the
 * folder has report-layout.json and no results.arrow.
 */
export interface PaperFolderLayout {
  /** compare(directory, options) compares the folder's reproduced cells with the published ones. Throws InputError. */
  compare(directory: string, options: Record<string, unknown>): PaperFolderComparison;
  /** write(directory, options, report) writes the folder's tables, charts and report.html. Throws InputError. */
  write(
    directory: string,
    options: Record<string, unknown>,
    report: { png?: boolean; now?: Date },
  ): Promise<PaperFolderReport>;
}

/** A paper's report layout: its tables, figures and comparison for one experiment. */
export interface PaperLayout {
  name: string;
  /** Experiments (results/<experiment>) this layout knows; others get no parts. */
  experiments: readonly string[];
  /**
   * The paper's published-numbers file (papers/<paper>/published.json): `report` and
   * `compare` compare every run with the files of the registered layouts by default.
   */
  published?: string;
  /**
   * build(input) lays the paper's parts out from the summarised run (asynchronously when
   * it reads another results folder, e.g. paper A's runs beyond the paper). Throws
   * InputError for bad options.
   */
  build(input: PaperLayoutInput): PaperLayoutParts | Promise<PaperLayoutParts>;
  /** For a paper-level folder without results.arrow (optional). */
  folder?: PaperFolderLayout;
}

/**
 * readPaperLayoutManifest(directory) reads <directory>/report-layout.json, or returns
 * null when the folder has none. Throws InputError when the file is not JSON or lacks
 * a string `layout`. O(size).
 */
export function readPaperLayoutManifest(directory: string): PaperLayoutManifest | null {
  const path = join(directory, PAPER_LAYOUT_FILE);
  if (!existsSync(path)) return null;
  const json = parseJsonUntrusted(
    readFileCapped(path, MAX_JSON_FILE_BYTES, 'a readable report-layout.json').toString('utf8'),
    path,
  );
  const record =
    json !== null && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : null;
  if (record === null || typeof record.layout !== 'string') {
    throw inputError({
      where: `${path}: layout`,
      expected: 'an object with a string "layout" (a paper layout name)',
      found: json,
    });
  }
  const options = record.options;
  if (options !== undefined && (options === null || typeof options !== 'object' || Array.isArray(options))) {
    throw inputError({ where: `${path}: options`, expected: 'an object', found: options });
  }
  return { layout: record.layout, options: (options as Record<string, unknown> | undefined) ?? {} };
}

/** writePaperLayoutManifest(directory, manifest) writes <directory>/report-layout.json atomically. */
export function writePaperLayoutManifest(directory: string, manifest: PaperLayoutManifest): void {
  writeFileAtomic(join(directory, PAPER_LAYOUT_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
}

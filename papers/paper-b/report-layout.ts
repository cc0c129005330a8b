import { join, relative, resolve } from 'node:path';
import type { ChartSpec } from '../../src/report/charts/chart-spec.js';
import { writeChart } from '../../src/report/charts/write-chart.js';
import {
  type ComparisonRow,
  cellsForExperiment,
  comparePublished,
  comparisonTable,
} from '../../src/report/compare-published.js';
import type { PaperFolderComparison, PaperFolderReport, PaperLayout } from '../../src/report/paper-layout.js';
import { loadPublishedFile, type PublishedCell } from '../../src/report/published.js';
import { type RenderedChart, reportHtml } from '../../src/report/report-html.js';
import type { CellStatus } from '../../src/report/reproduction-status.js';
import type { SummaryTable } from '../../src/report/summary-table.js';
import { writeTable } from '../../src/report/write-table.js';
import { writeFileAtomic } from '../../src/util/atomic-write.js';
import { inputError } from '../../src/util/errors.js';
import { packageRoot } from '../../src/util/paths.js';
import { type DatasetCharacteristics, publishedTable2 } from './dataset-characteristics.js';
import { figure1Charts, figure1Series } from './figure-1.js';
import { figure2Chart, figure2Series } from './figure-2.js';
import { paperBPublishedPath } from './files.js';
import { paperBModelSettings, table2ReportKind, table2Summaries, table2SummaryTable } from './table-2.js';
import { HATEDAY_NOT_REPRODUCED, table2Statuses } from './table-2-statuses.js';
import { paperBTable3Options, table3Rows, table3SummaryTable } from './table-3.js';
import { type ExactMinimumRow, exactMinimumTable, HATEDAY_NOT_COMPUTED, notComputedRow } from './table-3-exact.js';
import {
  type PaperBVariabilityRecord,
  paperBVariabilityParts,
  parsePaperBVariability,
} from './training-variability.js';

/** What results/paper-b/report-layout.json records of a paper B reproduction. */
export interface PaperBFolderRecord {
  /** Whether our own models were asked for (false with --calibrated: analytic only). */
  models: boolean;
  /** Table 2 rows measured on our models. */
  reproduced: DatasetCharacteristics[];
  /** Settings whose model could not be made, with the reason. */
  unavailable: Array<{ setting: string; reason: string }>;
  /** The Monte Carlo runs; reportPath relative to the folder (each run's time is in its own run.json). */
  runs: Array<{ experiment: string; rows: number; reportPath: string }>;
  /** Table 3 with the exact minimum, one row per candidate set of ours (absent in records written before it existed).
   * */
  exactMinimum?: ExactMinimumRow[];
  /** With --model-seeds/--split-seeds: each seed pair's Table 2 rows (absent otherwise, so a single run's file is
   * unchanged). */
  variability?: PaperBVariabilityRecord;
}

/** The parts of paper B's folder report, before anything is written. */
interface PaperBParts {
  tables: SummaryTable[];
  charts: ChartSpec[];
  series: SummaryTable[];
  comparison: ComparisonRow[];
  /** Every published Table 2 cell's status and why. */
  statuses: CellStatus[];
  notices: string[];
}

/**
 * unavailableNotices(unavailable) says once per reason (one dataset's loader message,
 * shared by its attributes) which Table 2 rows have no model, naming them. O(settings).
 */
export function unavailableNotices(unavailable: ReadonlyArray<{ setting: string; reason: string }>): string[] {
  const settingsByReason = new Map<string, string[]>();
  for (const missing of unavailable) {
    const reason = missing.reason.split('\n')[0].trim();
    settingsByReason.set(reason, [...(settingsByReason.get(reason) ?? []), missing.setting]);
  }
  return [...settingsByReason].map(
    ([reason, settings]) => `Table 2 rows ${settings.join(', ')} not reproduced (no model): ${reason}`,
  );
}

/** The published Table 2 cells (all settings, HateDay included). */
function publishedTable2Cells(): PublishedCell[] {
  return cellsForExperiment([loadPublishedFile(paperBPublishedPath())], 'paper-b-table-2');
}

/** reasonsOf(statuses) is each cell's "status: why" for cells that are not reproduced, by id. */
function reasonsOf(statuses: readonly CellStatus[]): Record<string, string> {
  return Object.fromEntries(
    statuses.filter((cell) => cell.why !== '').map((cell) => [cell.id, `${cell.status}: ${cell.why}`]),
  );
}

function seriesTable(id: string, title: string, rows: ReadonlyArray<object>): SummaryTable {
  const records = rows as ReadonlyArray<Record<string, string | number | boolean>>;
  const keys = Object.keys(records[0] ?? {});
  return {
    id,
    title,
    columns: keys.map((key) => ({
      name: key,
      label: key,
      type: typeof records[0][key] === 'number' ? ('number' as const) : ('string' as const),
    })),
    rows: records.map((row) =>
      Object.fromEntries(
        keys.map((key) => [key, typeof row[key] === 'boolean' ? String(row[key]) : (row[key] as string | number)]),
      ),
    ),
  };
}

/** The Table 2 comparison of our models' rows with the published cells (HateDay is not ours). */
function table2Comparison(reproduced: readonly DatasetCharacteristics[]): ComparisonRow[] {
  if (reproduced.length === 0) return [];
  const cells = publishedTable2Cells().filter((cell) => cell.where?.dataset !== 'hateday');
  return comparePublished(cells, table2Summaries(reproduced), table2ReportKind);
}

/**
 * paperBParts(record) lays out paper B's tables, figures and comparison: Table 3 and
 * Figures 1-2 analytically from the published Table 2; when our models ran, Table 2
 * from them (HateDay from the published figures), its comparison, Table 3 and Figure 2
 * again from it, and Table 3 with the exact minimum (recorded by reproduce).
 * O(rows × canary counts + figure points).
 */
function paperBParts(record: PaperBFolderRecord): PaperBParts {
  const notices = [
    "Table 3 and Figures 1-2 are images in the paper's text: the analytic tables and figures here are computed " +
      'from the published Table 2 with Proposition 1, Theorem 1 (best effort when ε − γ < 0) and Eq. 3, not copied.',
  ];
  const published = publishedTable2();
  const analytic = table3Rows(published, paperBTable3Options);
  const tables = [
    table3SummaryTable(
      analytic,
      paperBTable3Options,
      'paper-b-table-3-analytic',
      'Table 3 (analytic, from the published Table 2): flips to hide half the gap and detection probability',
      'ε = |d_C,true|/2, 1 − δ = 0.8, q = 0.8. Every row is best effort: ε < γ = sqrt(2 ln(4/δ)/n_min), so the ' +
        'respir provider removes the whole gap.',
    ),
  ];
  const figure1 = figure1Series();
  const figure2Published = figure2Series(analytic, paperBTable3Options);
  const charts = [
    ...figure1Charts(figure1),
    figure2Chart(
      figure2Published,
      'paper-b-figure-2-analytic',
      'Figure 2 (analytic, from the published Table 2): detection vs number of canaries',
    ),
  ];
  const series = [
    seriesTable('figure-1a-flips', 'Figure 1(a) data', figure1.flips),
    seriesTable('figure-1b-detection', 'Figure 1(b) data', figure1.detection),
    seriesTable('figure-2-analytic', 'Figure 2 data (published Table 2)', figure2Published),
  ];
  if (record.models) {
    const hateday = published.filter((row) => row.dataset === 'hateday');
    tables.push(
      table2SummaryTable(
        [...record.reproduced, ...hateday],
        'paper-b-table-2',
        'Table 2: dataset characteristics, our boosted trees (HateDay from the published figures)',
        'Measured on our candidate set C (45% of the data, stratified by the attribute) and audit set S (half of ' +
          'C); HateDay is gated and not mirrored, so its row is the published one.',
      ),
    );
    if (record.reproduced.length > 0) {
      const own = table3Rows([...record.reproduced, ...hateday], paperBTable3Options);
      tables.push(
        table3SummaryTable(
          own,
          paperBTable3Options,
          'paper-b-table-3-models',
          'Table 3 from our own Table 2 (HateDay from the published figures)',
        ),
      );
      if (record.exactMinimum !== undefined && record.exactMinimum.length > 0) {
        const notComputed = hateday.map((row) => notComputedRow(row, HATEDAY_NOT_COMPUTED, paperBTable3Options));
        tables.push(exactMinimumTable([...record.exactMinimum, ...notComputed], paperBTable3Options));
        notices.push(
          'Table 3 counts flips that suffice (Theorems 1-4); "Table 3 with the exact minimum" gives the fewest a ' +
            'provider needs on our candidate sets, so its detection gain over the vanilla audit is smaller. Rows ' +
            'whose ε is ' +
            'below sampling noise are flagged; HateDay is not computed (its group rates are unknown here).',
        );
      }
      const figure2Own = figure2Series(own, paperBTable3Options);
      charts.push(
        figure2Chart(
          figure2Own,
          'paper-b-figure-2-models',
          'Figure 2 from our own Table 2: detection vs number of canaries',
        ),
      );
      series.push(seriesTable('figure-2-models', 'Figure 2 data (our Table 2)', figure2Own));
    }
    notices.push(...unavailableNotices(record.unavailable), `Table 2 rows HateDay: ${HATEDAY_NOT_REPRODUCED}`);
    if (record.variability !== undefined) {
      const cells = cellsForExperiment([loadPublishedFile(paperBPublishedPath())], 'paper-b-table-2');
      const variability = paperBVariabilityParts(record.variability, cells);
      tables.push(...variability.tables);
      charts.push(...variability.charts);
      notices.push(...variability.notices);
    }
  } else {
    notices.push(
      'Analytic only (--calibrated): Table 2 was not measured on our own models, so there is nothing to compare ' +
        'with the published Table 2.',
    );
  }
  const comparison = table2Comparison(record.reproduced);
  const statuses = table2Statuses(publishedTable2Cells(), comparison, record.unavailable, record.models);
  return { tables, charts, series, comparison, statuses, notices };
}

function parseRecord(options: Record<string, unknown>, where: string): PaperBFolderRecord {
  const list = (key: string) => {
    const value = options[key];
    if (!Array.isArray(value))
      throw inputError({ where: `${where}: options.${key}`, expected: 'a list', found: value });
    return value;
  };
  if (typeof options.models !== 'boolean')
    throw inputError({ where: `${where}: options.models`, expected: 'true or false', found: options.models });
  const variability = parsePaperBVariability(options.variability, where);
  return {
    models: options.models,
    reproduced: list('reproduced') as DatasetCharacteristics[],
    unavailable: list('unavailable') as PaperBFolderRecord['unavailable'],
    runs: list('runs') as PaperBFolderRecord['runs'],
    ...(options.exactMinimum === undefined ? {} : { exactMinimum: list('exactMinimum') as ExactMinimumRow[] }),
    ...(variability === null ? {} : { variability }),
  };
}

/**
 * writePaperBReport(directory, record, report) writes results/paper-b's tables
 * (tables/, series/), charts (Vega-Lite, SVG, PNG), comparison.* and report.html from
 * the record that reproduce paper-b left in report-layout.json. O(charts + rows).
 */
export async function writePaperBReport(
  directory: string,
  record: PaperBFolderRecord,
  report: { png?: boolean; now?: Date } = {},
): Promise<PaperFolderReport> {
  const folder = resolve(directory);
  const parts = paperBParts(record);
  const files: string[] = [];
  for (const table of parts.tables) files.push(...writeTable(join(folder, 'tables'), table));
  for (const table of parts.series) files.push(...writeTable(join(folder, 'series'), table));
  const comparison =
    parts.comparison.length > 0
      ? {
          rows: parts.comparison,
          table: comparisonTable(parts.comparison, 'paper-b-table-2', reasonsOf(parts.statuses)),
          statuses: parts.statuses,
        }
      : null;
  if (comparison) files.push(...writeTable(folder, comparison.table));
  const rendered: RenderedChart[] = [];
  let pngProblem: string | null = null;
  for (const chart of parts.charts) {
    const written = await writeChart(folder, chart, report.png !== false && pngProblem === null);
    pngProblem ??= written.pngProblem;
    files.push(...written.files);
    rendered.push(written.rendered);
  }
  const notices = [
    ...parts.notices,
    ...(pngProblem === null ? [] : [`PNG files were not written (${pngProblem}); the SVG charts are complete.`]),
  ];
  // The summary is Table 2 when our models ran, else the analytic Table 3; the rest follow it.
  const summary = parts.tables.find((table) => table.id === 'paper-b-table-2') ?? parts.tables[0];
  const reportPath = join(folder, 'report.html');
  writeFileAtomic(
    reportPath,
    reportHtml({
      experiment: 'paper-b',
      kind: 'paper-b (analytic bounds, our models, Monte Carlo checks)',
      kindDescription:
        'Paper B (respir): flips a provider needs to pass vanilla vs oblivious audits, canary detection, and the ' +
        "bounds' Monte Carlo checks.",
      generatedAt: report.now === undefined ? 'from results.arrow and run.json' : report.now.toISOString(),
      provenance: [
        ['published Table 2', relative(packageRoot(), paperBPublishedPath())],
        [
          'models',
          record.reproduced.length > 0
            ? `${record.reproduced.length} of ${paperBModelSettings.length} settings trained or read from the cache`
            : 'none',
        ],
        ...record.runs.map((run): [string, string] => [
          `run ${run.experiment}`,
          `${run.rows} replicates: ${run.reportPath}`,
        ]),
      ],
      config: null,
      summary,
      paperTables: parts.tables.filter((table) => table !== summary),
      charts: rendered,
      comparison,
      notices,
    }),
  );
  files.push(reportPath);
  return { experiment: 'paper-b', comparison: parts.comparison, statuses: parts.statuses, notices, reportPath, files };
}

/**
 * relativeRuns(directory, runs) makes the runs' report paths relative to the folder (a moved folder still links
 * them) and leaves their times to each run's run.json, so equal results give an equal record.
 */
export function relativeRuns(
  directory: string,
  runs: ReadonlyArray<{ experiment: string; rows: number; reportPath: string }>,
): PaperBFolderRecord['runs'] {
  return runs.map(({ experiment, rows, reportPath }) => ({
    experiment,
    rows,
    reportPath: relative(resolve(directory), resolve(directory, reportPath)),
  }));
}

/**
 * Paper B's report layout: results/paper-b is a paper-level folder (no results.arrow of
 * its own; the Monte Carlo runs under runs/ have theirs and report by kind), rebuilt
 * from report-layout.json by `fairaudit report` and compared by `fairaudit compare`.
 */
export const paperBLayout: PaperLayout = {
  name: 'paper-b',
  experiments: [],
  published: paperBPublishedPath(),
  build: () => ({ notices: [], tables: [] }),
  folder: {
    compare(directory, options): PaperFolderComparison {
      const record = parseRecord(options, join(directory, 'report-layout.json'));
      const parts = paperBParts(record);
      return {
        experiment: 'paper-b-table-2',
        comparison: record.models ? parts.comparison : [],
        notices: parts.notices,
        statuses: parts.statuses,
        reasons: reasonsOf(parts.statuses),
      };
    },
    write(directory, options, report) {
      return writePaperBReport(directory, parseRecord(options, join(directory, 'report-layout.json')), report);
    },
  },
};

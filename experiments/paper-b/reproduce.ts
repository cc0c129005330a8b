import { join, resolve } from 'node:path';
import { writePoolFile } from '../../src/audit/pool-io.js';
import type { ChartSpec } from '../../src/report/charts/chart-spec.js';
import { renderChartSvg } from '../../src/report/charts/render-chart.js';
import { svgToPng } from '../../src/report/charts/svg-to-png.js';
import { type ComparisonRow, cellsForExperiment, comparePublished, comparisonTable } from '../../src/report/compare-published.js';
import { loadPublishedFile } from '../../src/report/published.js';
import { type RenderedChart, reportHtml } from '../../src/report/report-html.js';
import type { SummaryTable } from '../../src/report/summary-table.js';
import { writeReport } from '../../src/report/write-report.js';
import { writeTable } from '../../src/report/write-table.js';
import { loadConfig, type Override, parseConfig } from '../../src/runner/config.js';
import { runExperiment } from '../../src/runner/run-experiment.js';
import { writeFileAtomic } from '../../src/util/atomic-write.js';
import { isInputError } from '../../src/util/errors.js';
import { packageRoot } from '../../src/util/paths.js';
import { type DatasetCharacteristics, paperBPublishedPath, publishedTable2 } from './dataset-characteristics.js';
import { figure1Charts, figure1Series } from './figure-1.js';
import { figure2Chart, figure2Series } from './figure-2.js';
import { type CandidateSetProvider, trainedCandidateSets } from './candidate-sets.js';
import { characteristicsOfModel, paperBModelSettings, table2ReportKind, table2Summaries, table2SummaryTable } from './table-2.js';
import { paperBTable3Options, table3Rows, table3SummaryTable } from './table-3.js';

/** Options of runPaperB (the flags of `fairaudit reproduce paper-b`). */
export interface PaperBOptions {
  /** Where everything goes (default results/paper-b, relative to the working folder). */
  outDirectory?: string;
  /** `--set` overrides applied to the simulation configs (e.g. replicates=200). */
  overrides?: readonly Override[];
  /** Worker threads of the runner and of model training. */
  threads?: number;
  /** A local dataset mirror (else FAIRAUDIT_DATA_DIR, else data/downloads/). */
  dataDirectory?: string;
  /** Skip our own models (Table 2 from models, Table 3 and Figure 2 from them). */
  analyticOnly?: boolean;
  /** How candidate sets are made (default: our boosted trees through src/data and src/models). */
  candidateSets?: CandidateSetProvider;
  /** Run the Monte Carlo checks (default true). */
  simulate?: boolean;
  /** Write PNGs beside the SVGs (default true). */
  png?: boolean;
  onProgress?: (stage: string, done?: number, total?: number) => void;
}

/** What runPaperB did. */
export interface PaperBResult {
  outDirectory: string;
  reportPath: string;
  /** Settings whose model could not be made, with the reason (e.g. the dataset is missing). */
  unavailable: Array<{ setting: string; reason: string }>;
  reproducedRows: number;
  comparison: { total: number; within: number; outside: number; missing: number };
  runs: Array<{ experiment: string; rows: number; seconds: number; reportPath: string }>;
  seconds: number;
}

async function writeCharts(folder: string, charts: ChartSpec[], png: boolean): Promise<RenderedChart[]> {
  const rendered: RenderedChart[] = [];
  for (const chart of charts) {
    const svg = await renderChartSvg(chart.spec);
    const base = join('charts', chart.id);
    writeFileAtomic(join(folder, `${base}.vl.json`), `${JSON.stringify(chart.spec, null, 2)}\n`);
    writeFileAtomic(join(folder, `${base}.svg`), svg);
    let pngPath: string | null = null;
    if (png) {
      writeFileAtomic(join(folder, `${base}.png`), svgToPng(svg));
      pngPath = `${base}.png`;
    }
    rendered.push({ chart, svg, files: { spec: `${base}.vl.json`, svg: `${base}.svg`, png: pngPath } });
  }
  return rendered;
}

function seriesTable(id: string, title: string, rows: Array<Record<string, string | number | boolean>>): SummaryTable {
  const keys = Object.keys(rows[0] ?? {});
  return {
    id,
    title,
    columns: keys.map((key) => ({ name: key, label: key, type: typeof rows[0][key] === 'number' ? ('number' as const) : ('string' as const) })),
    rows: rows.map((row) => Object.fromEntries(keys.map((key) => [key, typeof row[key] === 'boolean' ? String(row[key]) : (row[key] as string | number)]))),
  };
}

/** The respir simulation on our models' candidate sets: Table 3's setting, simulated. */
function modelsSimulationConfig(pools: Array<{ name: string; file: string }>, overrides: readonly Override[]) {
  const grid = pools.map((pool) => `    - { name: ${pool.name}, file: ${JSON.stringify(pool.file)} }`).join('\n');
  const text = [
    'experiment: paper-b-models',
    'kind: respir',
    'description: "Table 3 simulated: the respir provider flips our models\' candidate sets to hide half the gap (1 − δ = 0.8, q = 0.8, k = 20)."',
    'seed: paper-b-2026',
    'replicates: 2000',
    'settings:',
    '  auditFraction: 0.5',
    '  hideFraction: 0.5',
    '  passProbability: 0.8',
    '  canaries: 20',
    '  canaryEffectiveness: 0.8',
    'grid:',
    '  manipulation: [theorem-1, theorem-4]',
    '  candidates:',
    grid,
    '',
  ].join('\n');
  return parseConfig(text, 'paper-b-models (generated by reproduce paper-b)', overrides);
}

/**
 * runPaperB(options) reproduces paper B's Tables 2-3 and Figures 1-2 and checks its
 * bounds by simulation, in this order: (1) Table 3 and Figures 1-2 analytically from
 * the published Table 2 (no data needed); (2) Table 2 from our own boosted trees on
 * CCD × {gender, education, marriage, age} and COMPAS × {gender, race} (HateDay's row
 * from the published figures), compared cell by cell with the published Table 2, and
 * Table 3 and Figure 2 again from it; (3) the Monte Carlo runs (pass rate and canary
 * detection after manipulation; the empirical fewest flips), each with its report;
 * (4) results/paper-b/report.html. Settings whose data is missing are listed, not fatal.
 */
export async function runPaperB(options: PaperBOptions = {}): Promise<PaperBResult> {
  const started = performance.now();
  const out = resolve(options.outDirectory ?? join('results', 'paper-b'));
  const png = options.png !== false;
  const progress = options.onProgress ?? (() => {});
  const tables: SummaryTable[] = [];
  const charts: ChartSpec[] = [];
  const notices: string[] = [
    "Table 3 and Figures 1-2 are images in the paper's text: the analytic tables and figures here are computed from the published Table 2 with Proposition 1, Theorem 1 (best effort when ε − γ < 0) and Eq. 3, not copied.",
  ];

  // (1) Analytic, from the published Table 2.
  progress('analytic Table 3 and Figures 1-2');
  const published = publishedTable2();
  const analytic = table3Rows(published, paperBTable3Options);
  tables.push(
    table3SummaryTable(
      analytic,
      paperBTable3Options,
      'paper-b-table-3-analytic',
      'Table 3 (analytic, from the published Table 2): flips to hide half the gap and detection probability',
      'ε = |d_C,true|/2, 1 − δ = 0.8, q = 0.8. Every row is best effort: ε < γ = sqrt(2 ln(4/δ)/n_min), so the respir provider removes the whole gap.',
    ),
  );
  const figure1 = figure1Series();
  charts.push(...figure1Charts(figure1));
  const figure2Published = figure2Series(analytic, paperBTable3Options);
  charts.push(figure2Chart(figure2Published, 'paper-b-figure-2-analytic', 'Figure 2 (analytic, from the published Table 2): detection vs number of canaries'));
  const seriesFolder = join(out, 'series');
  writeTable(seriesFolder, seriesTable('figure-1a-flips', 'Figure 1(a) data', figure1.flips as never));
  writeTable(seriesFolder, seriesTable('figure-1b-detection', 'Figure 1(b) data', figure1.detection as never));
  writeTable(seriesFolder, seriesTable('figure-2-analytic', 'Figure 2 data (published Table 2)', figure2Published as never));

  // (2) Our own models.
  const unavailable: PaperBResult['unavailable'] = [];
  const reproduced: DatasetCharacteristics[] = [];
  const pools: Array<{ name: string; file: string }> = [];
  let comparisonRows: ComparisonRow[] = [];
  if (!options.analyticOnly) {
    const provider = options.candidateSets ?? trainedCandidateSets({ dataDirectory: options.dataDirectory, threads: options.threads });
    for (const [index, setting] of paperBModelSettings.entries()) {
      progress(`model ${setting.dataset} ${setting.attribute}`, index, paperBModelSettings.length);
      try {
        const model = await provider(setting);
        reproduced.push(characteristicsOfModel(model));
        const file = join(out, 'pools', `${setting.dataset}-${setting.attribute}.arrow`);
        writePoolFile(file, model.candidatePool);
        pools.push({ name: `${setting.dataset}-${setting.attribute}`, file });
      } catch (error) {
        if (!isInputError(error)) throw error;
        unavailable.push({ setting: `${setting.datasetLabel} ${setting.attribute}`, reason: error.message });
      }
    }
    const hateday = published.filter((row) => row.dataset === 'hateday');
    tables.push(
      table2SummaryTable(
        [...reproduced, ...hateday],
        'paper-b-table-2',
        'Table 2: dataset characteristics, our boosted trees (HateDay from the published figures)',
        'Measured on our candidate set C (45% of the data, stratified by the attribute) and audit set S (half of C); HateDay is gated and not mirrored, so its row is the published one.',
      ),
    );
    const cells = cellsForExperiment([loadPublishedFile(paperBPublishedPath())], 'paper-b-table-2').filter((cell) => cell.where?.dataset !== 'hateday');
    comparisonRows = comparePublished(cells, table2Summaries(reproduced), table2ReportKind);
    if (reproduced.length > 0) {
      const own = table3Rows([...reproduced, ...hateday], paperBTable3Options);
      tables.push(
        table3SummaryTable(own, paperBTable3Options, 'paper-b-table-3-models', 'Table 3 from our own Table 2 (HateDay from the published figures)'),
      );
      const figure2Own = figure2Series(own, paperBTable3Options);
      charts.push(figure2Chart(figure2Own, 'paper-b-figure-2-models', 'Figure 2 from our own Table 2: detection vs number of canaries'));
      writeTable(seriesFolder, seriesTable('figure-2-models', 'Figure 2 data (our Table 2)', figure2Own as never));
    }
    for (const missing of unavailable) notices.push(`${missing.setting}: no model (${missing.reason}).`);
  }
  for (const table of tables) writeTable(join(out, 'tables'), table);
  const comparison = comparisonRows.length > 0 ? { rows: comparisonRows, table: comparisonTable(comparisonRows, 'paper-b-table-2') } : null;
  if (comparison) writeTable(out, comparison.table);

  // (3) Monte Carlo checks, each run with its own report.
  const runs: PaperBResult['runs'] = [];
  if (options.simulate !== false) {
    const configs = [
      loadConfig(join(packageRoot(), 'configs', 'paper-b', 'respir-check.yaml'), options.overrides ?? []),
      loadConfig(join(packageRoot(), 'configs', 'paper-b', 'minimal-flips.yaml'), options.overrides ?? []),
    ];
    if (pools.length > 0) configs.push(modelsSimulationConfig(pools, options.overrides ?? []));
    for (const config of configs) {
      progress(`run ${config.experiment}`);
      const directory = join(out, 'runs', config.experiment);
      const summary = await runExperiment(config, {
        threads: options.threads,
        outDirectory: directory,
        onProgress: (done, total) => progress(`run ${config.experiment}`, done, total),
      });
      const report = await writeReport(directory, { png });
      runs.push({ experiment: config.experiment, rows: summary.rows, seconds: summary.wallSeconds, reportPath: report.reportPath });
    }
  }

  // (4) The paper-level report.
  progress('report');
  const rendered = await writeCharts(out, charts, png);
  // The summary is Table 2 when our models ran, else the analytic Table 3; the rest follow it.
  const summary = tables.find((table) => table.id === 'paper-b-table-2') ?? tables[0];
  const reportPath = join(out, 'report.html');
  writeFileAtomic(
    reportPath,
    reportHtml({
      experiment: 'paper-b',
      kind: 'paper-b (analytic bounds, our models, Monte Carlo checks)',
      kindDescription: "Paper B (respir): flips a provider needs to pass vanilla vs oblivious audits, canary detection, and the bounds' Monte Carlo checks.",
      generatedAt: new Date().toISOString(),
      provenance: [
        ['published Table 2', paperBPublishedPath()],
        ['models', reproduced.length > 0 ? `${reproduced.length} of ${paperBModelSettings.length} settings trained or read from the cache` : 'none'],
        ...runs.map((run): [string, string] => [`run ${run.experiment}`, `${run.rows} replicates in ${run.seconds.toFixed(1)} s: ${run.reportPath}`]),
      ],
      config: null,
      summary,
      paperTables: tables.filter((table) => table !== summary),
      charts: rendered,
      comparison,
      notices,
    }),
  );
  const count = (status: string) => comparisonRows.filter((row) => row.status === status).length;
  return {
    outDirectory: out,
    reportPath,
    unavailable,
    reproducedRows: reproduced.length,
    comparison: { total: comparisonRows.length, within: count('within'), outside: count('outside'), missing: count('missing') },
    runs,
    seconds: (performance.now() - started) / 1000,
  };
}

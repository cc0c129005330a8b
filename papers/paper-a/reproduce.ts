import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { writePoolFile } from '../../src/audit/pool-io.js';
import { CALIBRATED_SYNTHETIC_NOTICE, PAPER_A_DATASETS } from './calibrated-pools.js';
import { writePaperLayoutManifest } from '../../src/report/paper-layout.js';
import { loadPublishedFile } from '../../src/report/published.js';
import { writeReport } from '../../src/report/write-report.js';
import { loadConfig, type Override } from '../../src/harness/config.js';
import { runExperiment } from '../../src/harness/run-experiment.js';
import { writeFileAtomic } from '../../src/util/atomic-write.js';
import type { ReproductionOptions } from '../reproduction.js';
import { paperAConfigFolder, paperAPublishedPath } from './files.js';
import { explainPaperAComparison, type PaperAComparisonRow } from './comparison.js';
import { calibratedPools, poolProvenance, type SourcedPool, type TrainedPoolsProvider } from './pool-sources.js';
import type { PaperALayoutOptions } from './report-layout.js';
import { trainedPools } from './trained-pools.js';

/** Options of reproducePaperA: those of every reproduction, and two of its own. */
export interface PaperAOptions extends ReproductionOptions {
  /** How real pools are made (default: load, split, train through src/data and src/models). */
  trainedPools?: TrainedPoolsProvider;
  /** Run the score/logit tolerance sweeps too (default true). */
  sensitivity?: boolean;
}

/** One results folder of the reproduction and how long its audits took. */
export interface PaperARun {
  experiment: string;
  directory: string;
  reportPath: string;
  rows: number;
  cells: number;
  auditSeconds: number;
  threads: number;
}

/** What reproducePaperA did. */
export interface PaperAReproduction {
  outDirectory: string;
  /** "real data", "calibrated synthetic" or "mixed: ...", in words. */
  mode: string;
  calibrated: boolean;
  pools: Array<{ name: string; origin: string; reason: string | null; cached: boolean | null }>;
  runs: PaperARun[];
  comparison: { reproduced: number; differs: number; missing: number; notReproduced: number; total: number };
  seconds: { pools: number; total: number };
  summaryPath: string;
}

const CONFIG_FILES = {
  main: 'paper-a.yaml',
  score: 'score-tolerance.yaml',
  logit: 'logit-tolerance.yaml',
} as const;

/**
 * shortReason(message) keeps the first line of a loader's message and any sentence
 * saying why the data cannot be used ("... cannot train a model: the ten features are
 * missing."), for tables; the whole message goes to pools.json.
 */
export function shortReason(message: string): string {
  const [first, ...rest] = message.split('\n');
  const why = rest
    .filter((line) => !/^\s*-/.test(line))
    .flatMap((line) => line.split(/(?<=\.)\s+/))
    .filter((sentence) => /cannot/i.test(sentence) && sentence.length < 300);
  return [first.trim(), ...why.slice(0, 1).map((sentence) => sentence.trim())].join(' ');
}

/** Overrides that point a config's pool grid at the pool files written by this run. */
function poolOverride(pools: readonly SourcedPool[], files: Map<string, string>, baseOnly: boolean): Override {
  const value = pools.filter((entry) => !baseOnly || entry.pool.base).map((entry) => ({ name: entry.pool.name, file: files.get(entry.pool.name) }));
  return { path: ['grid', 'pool'], value, flag: 'reproduce paper-a (pool files of this run)' };
}

function describeMode(pools: readonly SourcedPool[]): { mode: string; calibrated: boolean; chartNote: string | undefined } {
  const real = [...new Set(pools.filter((p) => p.origin === 'trained-model').map((p) => p.pool.datasetLabel))];
  const synthetic = [...new Set(pools.filter((p) => p.origin === 'calibrated-synthetic').map((p) => p.pool.datasetLabel))];
  if (synthetic.length === 0) return { mode: 'real data', calibrated: false, chartNote: undefined };
  if (real.length === 0) {
    return { mode: 'calibrated synthetic (no dataset available): NOT A REPRODUCTION', calibrated: true, chartNote: 'Calibrated synthetic data, not a reproduction.' };
  }
  return {
    mode: `mixed: ${real.join(', ')} on real data; ${synthetic.join(', ')} calibrated synthetic (not reproduced)`,
    calibrated: true,
    chartNote: `${synthetic.join(', ')}: calibrated synthetic data, not a reproduction; ${real.join(', ')}: real data.`,
  };
}

/**
 * reproducePaperA(options) rebuilds paper A's Tables 1-5 and Figure 1, in stages:
 * 1. pools: for each dataset, the trained models' audit pools when the data is
 *    available, else the calibrated synthetic pools (src/data/calibrated-pools.ts),
 *    labelled with the reason; written to <out>/pools/*.arrow with pools.json;
 * 2. audits: configs/paper-a/paper-a.yaml through the runner into <out>/ (and the
 *    score/logit tolerance sweeps into <out>/score-tolerance/, <out>/logit-tolerance/);
 * 3. report: the reporter's tables (Arrow, CSV, Markdown), charts (Vega-Lite, SVG, PNG)
 *    with Figure 1, report.html and comparison, plus paper A's annotated comparison
 *    (tables/paper-a-comparison.*) and README.md saying what was reproduced.
 * Throws InputError for bad overrides or a bad mirror path. Running time: training
 * (when models are not cached) plus 48 cells × replicates audits of at most B queries.
 */
export async function reproducePaperA(options: PaperAOptions = {}): Promise<PaperAReproduction> {
  const started = performance.now();
  const out = resolve(options.outDirectory ?? join('results', 'paper-a'));
  const progress = options.onProgress ?? (() => {});

  // Stage 0: validate every config with the user's overrides before anything is written.
  const userOverrides = options.overrides ?? [];
  const runs: Array<{ key: keyof typeof CONFIG_FILES; directory: string }> = [{ key: 'main', directory: out }];
  if (options.sensitivity !== false) {
    runs.push({ key: 'score', directory: join(out, 'score-tolerance') }, { key: 'logit', directory: join(out, 'logit-tolerance') });
  }
  for (const run of runs) loadConfig(join(paperAConfigFolder(), CONFIG_FILES[run.key]), userOverrides);

  // Stage 1: pools.
  const provider = options.trainedPools ?? trainedPools({ dataDirectory: options.dataDirectory, refresh: options.refreshModels, onStage: progress });
  const pools: SourcedPool[] = [];
  for (const dataset of PAPER_A_DATASETS) {
    if (options.calibrated) {
      pools.push(...calibratedPools(dataset, 'Calibrated default requested (--calibrated).'));
      continue;
    }
    progress(`pools: ${dataset}`);
    const real = await provider(dataset);
    if (real.available) pools.push(...real.pools);
    else pools.push(...calibratedPools(dataset, `No usable ${dataset} data: ${shortReason(real.reason)}`, real.reason));
  }
  const poolFiles = new Map<string, string>();
  for (const entry of pools) {
    const file = join(out, 'pools', `${entry.pool.name}.arrow`);
    writePoolFile(file, entry.auditPool);
    poolFiles.set(entry.pool.name, file);
  }
  const { mode, calibrated, chartNote } = describeMode(pools);
  const poolRecords = pools.map((entry) => ({
    name: entry.pool.name,
    dataset: entry.pool.dataset,
    model: entry.pool.model,
    origin: entry.origin,
    reason: entry.reason,
    loaderMessage: entry.loaderMessage,
    cached: entry.cached,
    file: poolFiles.get(entry.pool.name) as string,
    source: entry.auditPool.source,
    rows: entry.auditPool.size,
    card: entry.card,
  }));
  writeFileAtomic(join(out, 'pools', 'pools.json'), `${JSON.stringify({ mode, pools: poolRecords }, null, 2)}\n`);
  const poolSeconds = (performance.now() - started) / 1000;

  // Stage 2: audits through the harness.
  const notice = calibrated ? (pools.every((p) => p.origin === 'calibrated-synthetic') ? CALIBRATED_SYNTHETIC_NOTICE : `PARTLY CALIBRATED SYNTHETIC DATA (${mode}). ${CALIBRATED_SYNTHETIC_NOTICE}`) : null;
  const descriptionOverride: Override[] = notice ? [{ path: ['description'], value: notice, flag: 'reproduce paper-a (calibrated notice)' }] : [];
  const layoutOptions: PaperALayoutOptions = {
    notice,
    chartNote: chartNote ?? null,
    pools: pools.map((entry) => poolProvenance(entry, poolFiles.get(entry.pool.name))),
  };
  const done: PaperARun[] = [];
  let comparisonRows: PaperAComparisonRow[] = [];
  for (const run of runs) {
    const config = loadConfig(join(paperAConfigFolder(), CONFIG_FILES[run.key]), [
      poolOverride(pools, poolFiles, run.key !== 'main'),
      ...descriptionOverride,
      ...userOverrides,
    ]);
    progress(`audits: ${config.experiment}`, 0, config.cells.length * config.replicates);
    const summary = await runExperiment(config, {
      outDirectory: run.directory,
      threads: options.threads,
      onProgress: (completed, total) => progress(`audits: ${config.experiment}`, completed, total),
    });
    progress(`report: ${config.experiment}`);
    // Pool files relative to the folder, so a moved or copied results folder still finds them.
    const relativePools = layoutOptions.pools.map((pool) => (pool.file ? { ...pool, file: relative(run.directory, pool.file) } : pool));
    writePaperLayoutManifest(run.directory, { layout: 'paper-a', options: { ...layoutOptions, pools: relativePools } });
    const report = await writeReport(run.directory, { png: options.png });
    if (run.key === 'main') {
      const published = loadPublishedFile(paperAPublishedPath());
      comparisonRows = explainPaperAComparison(report.comparison, published.cells, report.summaries, layoutOptions.pools);
    }
    done.push({
      experiment: config.experiment,
      directory: run.directory,
      reportPath: report.reportPath,
      rows: summary.rows,
      cells: summary.cells,
      auditSeconds: summary.wallSeconds,
      threads: summary.threads,
    });
  }

  const count = (verdict: string) => comparisonRows.filter((row) => row.verdict === verdict).length;
  const comparison = {
    reproduced: count('reproduced'),
    differs: count('differs'),
    missing: count('missing'),
    notReproduced: count('not reproduced (calibrated synthetic)'),
    total: comparisonRows.length,
  };
  const summaryPath = join(out, 'README.md');
  const result: PaperAReproduction = {
    outDirectory: out,
    mode,
    calibrated,
    pools: poolRecords.map(({ name, origin, reason, cached }) => ({ name, origin, reason, cached })),
    runs: done,
    comparison,
    seconds: { pools: poolSeconds, total: (performance.now() - started) / 1000 },
    summaryPath,
  };
  writeFileAtomic(summaryPath, reproductionReadme(result, comparisonRows, notice));
  return result;
}

/** The Markdown front page of results/paper-a/: what ran on what, and where the outputs are. */
function reproductionReadme(result: PaperAReproduction, rows: PaperAComparisonRow[], notice: string | null): string {
  const lines: string[] = [];
  lines.push('# Paper A reproduction: Tables 1-5 and Figure 1', '');
  if (notice) lines.push(`> **${notice}**`, '');
  lines.push(`Mode: **${result.mode}**.`, '');
  lines.push('| pool | data | why |', '|---|---|---|');
  for (const pool of result.pools) {
    const data = pool.origin === 'trained-model' ? `trained model${pool.cached ? ' (cached)' : ''}` : 'calibrated synthetic';
    lines.push(`| ${pool.name} | ${data} | ${(pool.reason ?? '').replaceAll('|', '\\|').replaceAll('\n', ' ')} |`);
  }
  lines.push('', '## Outputs', '');
  for (const run of result.runs) {
    lines.push(
      `- \`${run.experiment}\`: ${run.cells} cells, ${run.rows} replicate audits in ${run.auditSeconds.toFixed(2)} s on ${run.threads} thread(s); report: \`${run.reportPath}\``,
    );
  }
  lines.push(
    '- Paper tables: `tables/paper-a-table-{1..5}.{arrow,csv,md}`; Figure 1: `charts/paper-a-figure-1.{vl.json,svg,png}`.',
    '- Comparison with every published cell: `comparison.*` (Monte Carlo tolerances) and `tables/paper-a-comparison.*` (with data origin, verdict and why).',
    '- `report-layout.json` names the paper layout: `fairaudit report <this folder>` rebuilds the tables, Figure 1 and report.html; `fairaudit compare <this folder>` prints the comparison with the reasons.',
    '',
  );
  const c = result.comparison;
  lines.push(
    '## Comparison',
    '',
    `${c.total} published cells: ${c.reproduced} reproduced within Monte Carlo tolerance, ${c.differs} differ, ${c.missing} missing, ${c.notReproduced} not reproduced (calibrated synthetic).`,
    '',
  );
  const differing = rows.filter((row) => row.verdict === 'differs');
  if (differing.length > 0) {
    lines.push('| cell | published | this run | why |', '|---|---|---|---|');
    for (const row of differing) {
      const reproduced = typeof row.reproduced === 'number' ? String(Number(row.reproduced.toPrecision(4))) : (row.reproduced ?? '');
      lines.push(`| ${row.table} ${row.row} ${row.column} | ${row.published} | ${reproduced} | ${row.why.replaceAll('|', '\\|')} |`);
    }
    lines.push('');
  }
  lines.push(`Total time ${result.seconds.total.toFixed(1)} s (pools ${result.seconds.pools.toFixed(1)} s).`, '');
  return lines.join('\n');
}

/** The published cell count per table, read from experiments/published/paper-a.json. */
export function publishedCellCounts(): Record<string, number> {
  const json = JSON.parse(readFileSync(paperAPublishedPath(), 'utf8')) as { cells: Array<{ table: string }> };
  const counts: Record<string, number> = {};
  for (const cell of json.cells) counts[cell.table] = (counts[cell.table] ?? 0) + 1;
  return counts;
}

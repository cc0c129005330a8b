import { readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { writePoolFile } from '../../src/audit/pool-io.js';
import {
  configFromObject,
  type ExperimentConfig,
  loadConfig,
  type Override,
  readConfigObject,
} from '../../src/harness/config.js';
import { type RunSummary, runExperiment } from '../../src/harness/run-experiment.js';
import { writePaperLayoutManifest } from '../../src/report/paper-layout.js';
import { loadPublishedFile } from '../../src/report/published.js';
import {
  type CellStatus,
  countStatuses,
  countsSentence,
  type ReproductionCounts,
} from '../../src/report/reproduction-status.js';
import { writeReport } from '../../src/report/write-report.js';
import { writeFileAtomic } from '../../src/util/atomic-write.js';
import { packageRoot } from '../../src/util/paths.js';
import type { ReproductionOptions } from '../reproduction.js';
import { runBeyondThePaper } from './beyond-the-paper.js';
import { CALIBRATED_SYNTHETIC_NOTICE, PAPER_A_DATASETS } from './calibrated-pools.js';
import { explainPaperAComparison, type PaperAComparisonRow, paperACellStatuses } from './comparison.js';
import { paperAConfigFolder, paperAPublishedPath } from './files.js';
import {
  cacheNotes,
  calibratedPools,
  poolProvenance,
  type SourcedPool,
  type TrainedPoolsProvider,
} from './pool-sources.js';
import type { PaperALayoutOptions } from './report-layout.js';
import { type SeedPoolsProvider, trainedSeedPools } from './seed-pools.js';
import { runSeedPairs } from './seed-runs.js';
import { trainedPools } from './trained-pools.js';
import { paperAVariability } from './training-variability.js';

/** Options of reproducePaperA: those of every reproduction, and two of its own. */
export interface PaperAOptions extends ReproductionOptions {
  /** How real pools are made (default: load, split, train through src/data and src/models). */
  trainedPools?: TrainedPoolsProvider;
  /** Run the score/logit tolerance sweeps too (default true). */
  sensitivity?: boolean;
  /** Run Tables 2 and 3 with the calibrated GLR and the betting test too (beyond-the-paper.ts; default true). */
  beyond?: boolean;
  /** How trained pools are made over seed pairs (with options.seeds; default: trainedSeedPools). */
  seedPools?: SeedPoolsProvider;
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
  comparison: {
    reproduced: number;
    differs: number;
    /** With seed pairs: trained cells seed 0 does not reproduce, inside / outside the seeds' widened range. */
    withinVariability: number;
    outsideVariability: number;
    missing: number;
    notReproduced: number;
    total: number;
  };
  /** Every published cell's status for readers (the counts console, README.md, report.html and compare share). */
  cells: CellStatus[];
  counts: ReproductionCounts;
  /** The seed pairs' counts when options.seeds asked for more than the single run, else null. */
  seeds: { modelSeeds: number; splitSeeds: number; pairs: number } | null;
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

/**
 * configWithPools(file, pools, files, baseOnly, notice, overrides) is a paper A config
 * as a value: its YAML with the pool grid pointing at this run's pool files (only the
 * base models' for the tolerance sweeps) and the calibrated-data notice as its
 * description, then the user's --set overrides, validated like the file itself.
 */
function configWithPools(
  out: string,
  file: string,
  pools: readonly SourcedPool[],
  files: Map<string, string>,
  baseOnly: boolean,
  notice: string | null,
  overrides: readonly Override[],
): ExperimentConfig {
  const raw = readConfigObject(file);
  const grid = (raw.grid ?? {}) as Record<string, unknown>;
  const pool = pools
    .filter((entry) => !baseOnly || entry.pool.base)
    .map((entry) => ({ name: entry.pool.name, file: files.get(entry.pool.name) }));
  return configFromObject(
    { ...raw, ...(notice ? { description: notice } : {}), grid: { ...grid, pool } },
    file,
    overrides,
    { baseDirectory: out },
  );
}

function describeMode(pools: readonly SourcedPool[]): {
  mode: string;
  calibrated: boolean;
  chartNote: string | undefined;
} {
  const real = [...new Set(pools.filter((p) => p.origin === 'trained-model').map((p) => p.pool.datasetLabel))];
  const synthetic = [
    ...new Set(pools.filter((p) => p.origin === 'calibrated-synthetic').map((p) => p.pool.datasetLabel)),
  ];
  if (synthetic.length === 0) return { mode: 'real data', calibrated: false, chartNote: undefined };
  if (real.length === 0) {
    return {
      mode: 'calibrated synthetic (no dataset available): NOT A REPRODUCTION',
      calibrated: true,
      chartNote: 'Calibrated synthetic data, not a reproduction.',
    };
  }
  return {
    mode: `mixed: ${real.join(', ')} on real data; ${synthetic.join(', ')} calibrated synthetic (not reproduced)`,
    calibrated: true,
    chartNote: `${synthetic.join(', ')}: calibrated synthetic data, not a reproduction; ${real.join(', ')}: real data.`,
  };
}

/** Stage 1 (load): where everything goes, and which configs run where. */
interface PaperAPlan {
  out: string;
  runs: Array<{ key: keyof typeof CONFIG_FILES; directory: string; file: string }>;
  overrides: readonly Override[];
  progress: (stage: string, done?: number, total?: number) => void;
}

/** The pools of the run (stage 2) as written (stage 3), with what the report says about them. */
interface WrittenPools {
  pools: SourcedPool[];
  files: Map<string, string>;
  records: Array<{ name: string; origin: string; reason: string | null; cached: boolean | null }>;
  mode: string;
  calibrated: boolean;
  notice: string | null;
  layoutOptions: PaperALayoutOptions;
  seconds: number;
}

/**
 * Stage 1: the output folder and the configs (paper-a.yaml, and the score/logit
 * tolerance sweeps unless options.sensitivity is false), each validated with the
 * user's overrides before anything is written.
 */
function planPaperA(options: PaperAOptions): PaperAPlan {
  const out = resolve(options.outDirectory ?? join('results', 'paper-a'));
  const keys: Array<keyof typeof CONFIG_FILES> = options.sensitivity === false ? ['main'] : ['main', 'score', 'logit'];
  const directories = { main: out, score: join(out, 'score-tolerance'), logit: join(out, 'logit-tolerance') };
  const runs = keys.map((key) => ({
    key,
    directory: directories[key],
    file: join(paperAConfigFolder(), CONFIG_FILES[key]),
  }));
  const overrides = options.overrides ?? [];
  for (const run of runs) loadConfig(run.file, overrides);
  return { out, runs, overrides, progress: options.onProgress ?? (() => {}) };
}

/** Stage 2: each dataset's pools: its trained models' when the data allows, else the calibrated ones with the reason.
 * */
async function makePools(plan: PaperAPlan, options: PaperAOptions): Promise<SourcedPool[]> {
  const provider =
    options.trainedPools ??
    trainedPools({
      dataDirectory: options.dataDirectory,
      refresh: options.refreshModels,
      onStage: plan.progress,
      ...(options.seeds === undefined ? {} : { seeds: options.seeds }),
    });
  const pools: SourcedPool[] = [];
  for (const dataset of PAPER_A_DATASETS) {
    if (options.calibrated) {
      pools.push(...calibratedPools(dataset, 'Calibrated default requested (--calibrated).'));
      continue;
    }
    plan.progress(`pools: ${dataset}`);
    const real = await provider(dataset);
    if (real.available) pools.push(...real.pools);
    else pools.push(...calibratedPools(dataset, `No usable ${dataset} data: ${shortReason(real.reason)}`, real.reason));
  }
  return pools;
}

/** Stage 3: the pools as <out>/pools/*.arrow with pools.json, and what the runs' reports need to know of them. */
function writePools(out: string, pools: SourcedPool[], started: number): WrittenPools {
  // Pool files named relative to the results folder (the configs' base folder), so two
  // folders with equal pools give equal plans, fingerprints and results.
  const files = new Map<string, string>();
  for (const entry of pools) {
    const file = join('pools', `${entry.pool.name}.arrow`);
    writePoolFile(join(out, file), entry.auditPool);
    files.set(entry.pool.name, file);
  }
  const { mode, calibrated, chartNote } = describeMode(pools);
  // Paths inside the package (the model cache, downloads) are named relative to it, so
  // two checkouts write the same pools.json.
  const inPackage = (text: string | null | undefined) =>
    typeof text === 'string' ? text.split(`${packageRoot()}${sep}`).join('') : text;
  const records = pools.map((entry) => ({
    name: entry.pool.name,
    dataset: entry.pool.dataset,
    model: entry.pool.model,
    origin: entry.origin,
    reason: entry.reason,
    loaderMessage: inPackage(entry.loaderMessage),
    file: files.get(entry.pool.name) as string,
    source: inPackage(entry.auditPool.source),
    rows: entry.auditPool.size,
    card: entry.card,
  }));
  writeFileAtomic(join(out, 'pools', 'pools.json'), `${JSON.stringify({ mode, pools: records }, null, 2)}\n`);
  const allSynthetic = pools.every((p) => p.origin === 'calibrated-synthetic');
  const notice = calibrated
    ? allSynthetic
      ? CALIBRATED_SYNTHETIC_NOTICE
      : `PARTLY CALIBRATED SYNTHETIC DATA (${mode}). ${CALIBRATED_SYNTHETIC_NOTICE}`
    : null;
  const layoutOptions: PaperALayoutOptions = {
    notice,
    chartNote: chartNote ?? null,
    // Cache state differs between a cold and a warm run: it goes to run.json's provenance only.
    pools: pools.map((entry) => ({ ...poolProvenance(entry, files.get(entry.pool.name)), cached: null })),
  };
  const summary = pools.map((entry) => ({
    name: entry.pool.name,
    origin: entry.origin,
    reason: entry.reason,
    cached: entry.cached,
  }));
  return {
    pools,
    files,
    records: summary,
    mode,
    calibrated,
    notice,
    layoutOptions,
    seconds: (performance.now() - started) / 1000,
  };
}

/**
 * Stage 3b (with --model-seeds/--split-seeds): every trained dataset's models under the
 * other seed pairs and the main grid on each (runSeedPairs, <out>/seeds/), recorded in
 * the layout options so the report sets each trained cell against its seeds.
 */
async function addSeedPairs(plan: PaperAPlan, written: WrittenPools, options: PaperAOptions): Promise<void> {
  if (options.seeds === undefined || options.calibrated) return;
  const main = plan.runs.find((run) => run.key === 'main') as PaperAPlan['runs'][number];
  const provider =
    options.seedPools ??
    trainedSeedPools({
      dataDirectory: options.dataDirectory,
      // The default pools stage trained every seed pair already (trainedPools with seeds): read them back.
      refresh: options.refreshModels === true && options.trainedPools !== undefined,
      onStage: plan.progress,
    });
  const context = {
    out: plan.out,
    configFile: main.file,
    overrides: plan.overrides,
    threads: options.threads,
    progress: plan.progress,
  };
  const variability = await runSeedPairs(context, written.pools, options.seeds, provider);
  if (variability !== null) written.layoutOptions.variability = variability;
}

/** The seed counts of a run with seed pairs (for the summary), or null. */
function seedCounts(options: PaperALayoutOptions): PaperAReproduction['seeds'] {
  const record = options.variability;
  return record === undefined
    ? null
    : { modelSeeds: record.modelSeeds, splitSeeds: record.splitSeeds, pairs: record.runs.length };
}

/** Stage 4 (run + report), one config: its audits through the harness, then its report with paper A's layout. */
async function runAndReport(
  plan: PaperAPlan,
  run: PaperAPlan['runs'][number],
  written: WrittenPools,
  options: PaperAOptions,
) {
  const config = configWithPools(
    plan.out,
    run.file,
    written.pools,
    written.files,
    run.key !== 'main',
    written.notice,
    plan.overrides,
  );
  plan.progress(`audits: ${config.experiment}`, 0, config.cells.length * config.replicates);
  const summary = await runExperiment(config, {
    outDirectory: run.directory,
    threads: options.threads,
    onProgress: (completed, total) => plan.progress(`audits: ${config.experiment}`, completed, total),
    provenanceNotes: cacheNotes(written.pools),
  });
  plan.progress(`report: ${config.experiment}`);
  // Pool files relative to the folder, so a moved or copied results folder still finds them.
  const pools = written.layoutOptions.pools.map((pool) =>
    pool.file ? { ...pool, file: relative(run.directory, join(plan.out, pool.file)) } : pool,
  );
  writePaperLayoutManifest(run.directory, { layout: 'paper-a', options: { ...written.layoutOptions, pools } });
  const report = await writeReport(run.directory, { png: options.png });
  return { done: paperARun(config.experiment, run.directory, summary, report.reportPath), report };
}

/** paperARun(experiment, directory, summary, reportPath): what the summary says of one run. */
function paperARun(experiment: string, directory: string, summary: RunSummary, reportPath: string): PaperARun {
  return {
    experiment,
    directory,
    reportPath,
    rows: summary.rows,
    cells: summary.cells,
    auditSeconds: summary.wallSeconds,
    threads: summary.threads,
  };
}

/** Stage 4 for every config; paper A's annotated comparison comes from the main run. */
async function runAudits(plan: PaperAPlan, written: WrittenPools, options: PaperAOptions) {
  const runs: PaperARun[] = [];
  let comparisonRows: PaperAComparisonRow[] = [];
  for (const run of plan.runs) {
    const { done, report } = await runAndReport(plan, run, written, options);
    if (run.key === 'main') {
      const published = loadPublishedFile(paperAPublishedPath());
      const seeds = written.layoutOptions.variability;
      const variability = seeds
        ? await paperAVariability(run.directory, seeds, report.comparison, published.cells, written.layoutOptions.pools)
        : null;
      comparisonRows = explainPaperAComparison(
        report.comparison,
        published.cells,
        report.summaries,
        written.layoutOptions.pools,
        variability,
      );
    }
    runs.push(done);
  }
  return { runs, comparisonRows };
}

/** Stage 3b (beyond the paper, before the main report that shows it): Tables 2 and 3's audits with the error-controlled
 * tests. */
async function runBeyond(plan: PaperAPlan, written: WrittenPools, options: PaperAOptions): Promise<PaperARun> {
  const main = plan.runs.find((run) => run.key === 'main') as PaperAPlan['runs'][number];
  const input = {
    out: plan.out,
    configFile: main.file,
    pools: written.pools,
    files: written.files,
    notice: written.notice,
    overrides: plan.overrides,
    threads: options.threads,
    png: options.png,
    progress: plan.progress,
  };
  const run = await runBeyondThePaper(input);
  return paperARun(run.experiment, run.directory, run.summary, run.reportPath);
}

/** Stage 5 (summary): the comparison's counts and README.md, the reproduction's front page. */
function writeSummary(
  plan: PaperAPlan,
  written: WrittenPools,
  runs: PaperARun[],
  rows: PaperAComparisonRow[],
  started: number,
): PaperAReproduction {
  const count = (verdict: string) => rows.filter((row) => row.verdict === verdict).length;
  const cells = paperACellStatuses(rows);
  const result: PaperAReproduction = {
    outDirectory: plan.out,
    mode: written.mode,
    calibrated: written.calibrated,
    pools: written.records,
    runs,
    comparison: {
      reproduced: count('reproduced'),
      differs: count('differs'),
      withinVariability: count('within training variability'),
      outsideVariability: count('outside training variability'),
      missing: count('missing'),
      notReproduced: count('not reproduced (calibrated synthetic)'),
      total: rows.length,
    },
    cells,
    counts: countStatuses(cells),
    seeds: seedCounts(written.layoutOptions),
    seconds: { pools: written.seconds, total: (performance.now() - started) / 1000 },
    summaryPath: join(plan.out, 'README.md'),
  };
  writeFileAtomic(result.summaryPath, reproductionReadme(result, rows, written.notice));
  return result;
}

/**
 * reproducePaperA(options) rebuilds paper A's Tables 1-5 and Figure 1, in named stages:
 * 1. plan: the output folder and the configs of papers/paper-a/configs/, validated
 *    with the user's overrides before anything is written;
 * 2. pools: for each dataset, the trained models' audit pools when the data is
 *    available (papers/paper-a/configs/models/<dataset>.yaml), else the calibrated
 *    synthetic pools (papers/paper-a/calibrated-pools.ts), labelled with the reason;
 * 3. write: <out>/pools/*.arrow with pools.json;
 * 3b. beyond the paper: Tables 2 and 3's audits with the calibrated GLR and the
 *    betting test into <out>/beyond-the-paper/ (beyond-the-paper.ts), before the main
 *    report, which shows them beside paper A's test;
 * 4. run and report: each config, its pool grid pointing at those files (a config
 *    built as a value), through the harness into <out>/ (and the score/logit
 *    tolerance sweeps into <out>/score-tolerance/, <out>/logit-tolerance/), then the
 *    reporter's tables, charts, report.html and comparison with paper A's layout;
 * 5. summary: paper A's annotated comparison counts and README.md.
 * Throws InputError for bad overrides or a bad mirror path. Running time: training
 * (when models are not cached) plus 48 cells × replicates audits of at most B queries.
 */
export async function reproducePaperA(options: PaperAOptions = {}): Promise<PaperAReproduction> {
  const started = performance.now();
  const plan = planPaperA(options);
  const pools = await makePools(plan, options);
  const written = writePools(plan.out, pools, started);
  await addSeedPairs(plan, written, options);
  const beyond = options.beyond === false ? [] : [await runBeyond(plan, written, options)];
  const { runs, comparisonRows } = await runAudits(plan, written, options);
  return writeSummary(plan, written, [...runs, ...beyond], comparisonRows, started);
}

/** The Markdown front page of results/paper-a/: what ran on what, and where the outputs are. */
function reproductionReadme(result: PaperAReproduction, rows: PaperAComparisonRow[], notice: string | null): string {
  const lines: string[] = [];
  lines.push('# Paper A reproduction: Tables 1-5 and Figure 1', '');
  if (notice) lines.push(`> **${notice}**`, '');
  lines.push(`Mode: **${result.mode}**.`, '');
  lines.push('| pool | data | why |', '|---|---|---|');
  for (const pool of result.pools) {
    const data = pool.origin === 'trained-model' ? 'trained model' : 'calibrated synthetic';
    lines.push(`| ${pool.name} | ${data} | ${(pool.reason ?? '').replaceAll('|', '\\|').replaceAll('\n', ' ')} |`);
  }
  lines.push('', '## Outputs', '');
  for (const run of result.runs) {
    lines.push(
      `- \`${run.experiment}\`: ${run.cells} cells, ${run.rows} replicate audits; report: ` +
        `\`${relative(result.outDirectory, run.reportPath) || 'report.html'}\` (times in its run.json provenance)`,
    );
  }
  lines.push(
    '- Paper tables: `tables/paper-a-table-{1..5}.{arrow,csv,md}`; Figure 1: ' +
      '`charts/paper-a-figure-1.{vl.json,svg,png}`.',
    '- Comparison with every published cell: `comparison.*` (Monte Carlo tolerances) and ' +
      '`tables/paper-a-comparison.*` (with data origin, verdict and why).',
    '- `report-layout.json` names the paper layout: `fairaudit report <this folder>` rebuilds the tables, Figure ' +
      '1 and report.html; `fairaudit compare <this folder>` prints the comparison with the reasons.',
    '',
  );
  const c = result.comparison;
  lines.push(
    '## Comparison',
    '',
    `${countsSentence(result.counts)}.`,
    '',
    '"reproduced": real data, within the Monte Carlo tolerance; "differs": real data, outside it (the table ' +
      'below says why); "synthetic": calibrated synthetic data built from the published numbers, not a reproduction.',
    '',
  );
  if (result.seeds !== null) {
    lines.push(
      `Training variability: every trained model retrained under ${result.seeds.modelSeeds} model seeds ` +
        `and ${result.seeds.splitSeeds} split seeds (${result.seeds.pairs} seed pairs, runs under \`seeds/\`): ` +
        `${c.withinVariability} cells within training variability, ${c.outsideVariability} outside it; the ` +
        `comparison tables give each trained cell's seeds and charts/paper-a-seeds-*.svg shows them.`,
      '',
    );
  }
  const differing = rows.filter((row) => row.verdict === 'differs' || row.verdict === 'outside training variability');
  if (differing.length > 0) {
    lines.push('| cell | published | this run | why |', '|---|---|---|---|');
    for (const row of differing) {
      const reproduced =
        typeof row.reproduced === 'number' ? String(Number(row.reproduced.toPrecision(4))) : (row.reproduced ?? '');
      const why = row.why.replaceAll('|', '\\|');
      lines.push(`| ${row.table} ${row.row} ${row.column} | ${row.published} | ${reproduced} | ${why} |`);
    }
    lines.push('');
  }
  return lines.join('\n');
}

/** The published cell count per table, read from papers/paper-a/published.json. */
export function publishedCellCounts(): Record<string, number> {
  const json = JSON.parse(readFileSync(paperAPublishedPath(), 'utf8')) as { cells: Array<{ table: string }> };
  const counts: Record<string, number> = {};
  for (const cell of json.cells) counts[cell.table] = (counts[cell.table] ?? 0) + 1;
  return counts;
}

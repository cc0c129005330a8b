import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { configFromObject, type ExperimentConfig, type Override, readConfigObject } from '../../src/harness/config.js';
import { type RunSummary, runExperiment } from '../../src/harness/run-experiment.js';
import type { CellSummary } from '../../src/report/cell-results.js';
import { findKindReporter } from '../../src/report/kind-reporters.js';
import { readResultsFolder } from '../../src/report/results-folder.js';
import { summarizeResults } from '../../src/report/summarize-results.js';
import type { SummaryColumn, SummaryTable, SummaryValue } from '../../src/report/summary-table.js';
import { writeReport } from '../../src/report/write-report.js';
import { ACCESS_REGIMES, decisionAndQueries } from './access-table.js';
import { declaredLogitBounds, REPRODUCTION_CALIBRATION } from './error-control/settings.js';
import { cacheNotes, type SourcedPool } from './pool-sources.js';
import { PAPER_A_BASE_POOLS } from './pools.js';

/** The experiment of Tables 2 and 3 recomputed with the error-controlled tests (results/paper-a/beyond-the-paper/). */
export const PAPER_A_BEYOND_EXPERIMENT = 'paper-a-beyond';

/** Its folder under results/paper-a/. */
export const BEYOND_FOLDER = 'beyond-the-paper';

/** The tests beside paper A's own (wald-glr) in the beyond-the-paper tables. */
export const BEYOND_TESTS = ['calibrated-glr', 'betting'] as const;

/** What the beyond-the-paper stage needs of reproducePaperA. */
export interface BeyondThePaperInput {
  /** results/paper-a (absolute). */
  readonly out: string;
  /** papers/paper-a/configs/paper-a.yaml. */
  readonly configFile: string;
  readonly pools: readonly SourcedPool[];
  readonly files: ReadonlyMap<string, string>;
  readonly notice: string | null;
  readonly overrides: readonly Override[];
  readonly threads?: number;
  readonly png?: boolean;
  readonly progress: (stage: string, done?: number, total?: number) => void;
}

/** What the stage ran: the experiment, its folder, the harness's summary and the report. */
export interface BeyondThePaperRun {
  readonly experiment: string;
  readonly directory: string;
  readonly summary: RunSummary;
  readonly reportPath: string;
}

/**
 * beyondConfig(input) is paper A's main config as a value, narrowed to what Tables 2 and 3
 * read (the four base models' pools, SP and EO, three access regimes) and run with the
 * calibrated GLR and the betting test instead of paper A's: the reproductions' calibration
 * (REPRODUCTION_CALIBRATION) and the declared logit range of the pools
 * (declaredLogitBounds) for the betting test under logit access; then the user's --set
 * overrides. Throws InputError for bad overrides.
 */
export function beyondConfig(input: BeyondThePaperInput): ExperimentConfig {
  const raw = readConfigObject(input.configFile);
  const settings = (raw.settings ?? {}) as Record<string, unknown>;
  const base = input.pools.filter((entry) => entry.pool.base);
  const logitBounds = declaredLogitBounds(
    base.map((entry) => entry.auditPool),
    Number(settings.logitTolerance ?? 0.2),
  );
  return configFromObject(
    {
      ...raw,
      experiment: PAPER_A_BEYOND_EXPERIMENT,
      description:
        `${input.notice ? `${input.notice} ` : ''}Beyond paper A: Tables 2 and 3's audits with the ` +
        `calibrated GLR and the betting test (error-controlled tests).`,
      settings: { ...settings, calibration: REPRODUCTION_CALIBRATION, logitBounds },
      grid: {
        ...((raw.grid ?? {}) as Record<string, unknown>),
        pool: base.map((entry) => ({ name: entry.pool.name, file: input.files.get(entry.pool.name) })),
        test: [...BEYOND_TESTS],
      },
    },
    input.configFile,
    input.overrides,
    { baseDirectory: input.out },
  );
}

/**
 * runBeyondThePaper(input) is a stage of reproducePaperA: it runs beyondConfig through
 * the harness into <out>/beyond-the-paper/ (calibrations first, on worker threads, into
 * the calibration cache shared with `reproduce error-control`) and writes that run's own
 * report. results/paper-a's report then shows Tables 2 and 3 with these tests beside
 * paper A's (beyondTables), marked as beyond the paper; paper A's runs, tables and
 * comparison are untouched. Running time: the calibrations not cached plus 48 cells x
 * replicates audits.
 */
export async function runBeyondThePaper(input: BeyondThePaperInput): Promise<BeyondThePaperRun> {
  const config = beyondConfig(input);
  const directory = join(input.out, BEYOND_FOLDER);
  input.progress(`audits: ${config.experiment} (calibrating first when not cached)`);
  const summary = await runExperiment(config, {
    outDirectory: directory,
    threads: input.threads,
    onProgress: (completed, total) => input.progress(`audits: ${config.experiment}`, completed, total),
    provenanceNotes: cacheNotes(input.pools),
  });
  const report = await writeReport(directory, { png: input.png });
  return { experiment: config.experiment, directory, summary, reportPath: report.reportPath };
}

/** The summaries of <directory>/beyond-the-paper, or null when that run is not there. */
async function beyondSummaries(directory: string): Promise<CellSummary[] | null> {
  const folder = join(directory, BEYOND_FOLDER);
  if (!existsSync(join(folder, 'results.arrow'))) return null;
  const results = await readResultsFolder(folder);
  return summarizeResults(results, findKindReporter(results.kind, join(folder, 'results.arrow')));
}

function cellOf(
  summaries: readonly CellSummary[],
  pool: string,
  metric: string,
  access: string,
  test?: string,
): CellSummary | undefined {
  return summaries.find(
    (cell) =>
      cell.settings.pool === pool &&
      cell.settings.metric === metric &&
      cell.settings.access === access &&
      (test === undefined || cell.settings.test === test),
  );
}

/**
 * beyondTables(directory, summaries) lays out Tables 2 (SP) and 3 (EO) beyond the paper:
 * per base model and access regime, paper A's test (this run's, as in Tables 2-3) beside
 * the calibrated GLR and the betting test (the beyond-the-paper run): the most frequent
 * decision and mean ± std of queries. Empty when the beyond-the-paper run is not in the
 * folder. The published comparison never reads these tables. O(cells).
 */
export async function beyondTables(directory: string, summaries: readonly CellSummary[]): Promise<SummaryTable[]> {
  const beyond = await beyondSummaries(directory);
  if (beyond === null) return [];
  const tests = [{ test: 'wald-glr', label: "paper A's test" }, ...BEYOND_TESTS.map((test) => ({ test, label: test }))];
  const columns: SummaryColumn[] = [
    { name: 'dataset', label: 'Dataset', type: 'string' },
    { name: 'model', label: 'Model', type: 'string' },
    ...ACCESS_REGIMES.flatMap(({ access, label }) =>
      tests.map(({ test, label: testLabel }) => ({
        name: `${access}_${test.replace('-', '_')}`,
        label: `${label}: ${testLabel}`,
        type: 'string' as const,
        description:
          `most frequent decision and mean ± std of queries over the ` +
          `replicates, ${test}${test === 'wald-glr' ? ' (as in the paper)' : ' (beyond the paper)'}`,
      })),
    ),
  ];
  return (['sp', 'eo'] as const).map((metric, index) => ({
    id: `paper-a-table-${index + 2}-beyond`,
    title:
      `Table ${index + 2} beyond the paper (${metric.toUpperCase()}): paper A's test beside the calibrated ` +
      `GLR and the betting test`,
    caption:
      "NOT IN THE PAPER. The calibrated GLR uses thresholds calibrated by Monte Carlo for each pool's group " +
      "sizes (decisions) or values (scores, logits) with the reproduction's calibration (500 simulated audits per " +
      'pool: conservative); the betting test is anytime-valid (with logits, on the declared logit range of the ' +
      'pools). ' +
      "See docs/error-control.md. The comparison with the published cells reads paper A's test only.",
    columns,
    rows: PAPER_A_BASE_POOLS.map((pool) => {
      const row: Record<string, SummaryValue> = { dataset: pool.datasetLabel, model: pool.modelLabel };
      for (const { access } of ACCESS_REGIMES) {
        for (const { test } of tests) {
          const cell =
            test === 'wald-glr'
              ? cellOf(summaries, pool.name, metric, access)
              : cellOf(beyond, pool.name, metric, access, test);
          row[`${access}_${test.replace('-', '_')}`] = decisionAndQueries(cell);
        }
      }
      return row;
    }),
  }));
}

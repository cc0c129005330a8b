import { join, relative, resolve } from 'node:path';
import { writePoolFile } from '../../../src/audit/pool-io.js';
import { runExperiment } from '../../../src/harness/run-experiment.js';
import { writePaperLayoutManifest } from '../../../src/report/paper-layout.js';
import { writeReport } from '../../../src/report/write-report.js';
import { writeFileAtomic } from '../../../src/util/atomic-write.js';
import type { ReproductionOptions } from '../../reproduction.js';
import { PAPER_A_DATASETS } from '../calibrated-pools.js';
import { paperAConfigFolder } from '../files.js';
import { calibratedPools, type SourcedPool, type TrainedPoolsProvider } from '../pool-sources.js';
import { trainedPools } from '../trained-pools.js';
import { ERROR_CONTROL_EXPERIMENT, errorControlConfig, type StudyPool } from './config.js';
import type { ErrorControlLayoutOptions } from './report-layout.js';
import type { StudyPoolLabel } from './table.js';

/** Options of reproduceErrorControl: those of every reproduction, and how real pools are made. */
export interface ErrorControlOptions extends ReproductionOptions {
  /** How the real Adult pools are made (default: load, split, train or read the model cache). */
  trainedPools?: TrainedPoolsProvider;
}

/** What reproduceErrorControl did. */
export interface ErrorControlReproduction {
  outDirectory: string;
  pools: StudyPoolLabel[];
  /** Why the real Adult pools are not in the study, or null when they are. */
  realAdult: string | null;
  cells: number;
  rows: number;
  auditSeconds: number;
  threads: number;
  reportPath: string;
  totalSeconds: number;
}

const NOTICE =
  "The calibrated pools have paper A's compositions (group sizes and label rates of the Adult and ACS test " +
  "splits, Table 1's SP and EO gaps; scores and logits assumed): they are paper A's settings, not reproductions of " +
  'its models.';

/**
 * Stage 2 (pools): the eight calibrated pools of paper A (always), and the four real
 * Adult pools when the data allows (trained, or read from the model cache), each with
 * its file under <out>/pools/ and its label.
 */
async function studyPools(
  out: string,
  options: ErrorControlOptions,
): Promise<{ pools: StudyPool[]; labels: StudyPoolLabel[]; realAdult: string | null }> {
  const sourced: Array<{ name: string; label: string; data: string; entry: SourcedPool }> = [];
  for (const dataset of PAPER_A_DATASETS) {
    for (const entry of calibratedPools(dataset, "The error-control study audits paper A's compositions.")) {
      sourced.push({
        name: entry.pool.name,
        label: `${entry.pool.datasetLabel} ${entry.pool.modelLabel}`,
        data: "calibrated synthetic (paper A's composition)",
        entry,
      });
    }
  }
  let realAdult: string | null = 'not asked for (--calibrated)';
  if (!options.calibrated) {
    const provider =
      options.trainedPools ??
      trainedPools({
        dataDirectory: options.dataDirectory,
        refresh: options.refreshModels,
        onStage: (stage) => options.onProgress?.(stage),
      });
    const adult = await provider('adult');
    if (adult.available) {
      realAdult = null;
      for (const entry of adult.pools) {
        sourced.push({
          name: `${entry.pool.name}-real`,
          label: `${entry.pool.datasetLabel} ${entry.pool.modelLabel} (real)`,
          data: 'real data (trained model)',
          entry,
        });
      }
    } else {
      realAdult = adult.reason.split('\n')[0];
    }
  }
  const pools = sourced.map(({ name, entry }) => ({ name, file: join(out, 'pools', `${name}.arrow`), sourced: entry }));
  return { pools, labels: sourced.map(({ name, label, data }) => ({ name, label, data })), realAdult };
}

/**
 * reproduceErrorControl(options) is `fairaudit reproduce error-control`, in named stages:
 * 1. plan: the output folder (default results/error-control);
 * 2. pools: paper A's eight calibrated pools, plus the real Adult pools when the data is
 *    there; the config (errorControlConfig: an operating-characteristic experiment over
 *    pools × SP, EO × decision, score, logit × wald-glr, calibrated-glr, betting × gaps)
 *    is validated with the user's --set overrides before anything is written;
 * 3. write: the pools as <out>/pools/*.arrow;
 * 4. run: through the harness (the calibrations first, on worker threads, cached by
 *    fingerprint and shared with paper A's beyond-the-paper tables), into <out>/;
 * 5. report: report-layout.json naming the error-control layout, then the reporter's
 *    summary, the error-control table and charts and report.html; README.md.
 * Throws InputError for bad overrides. Running time: the calibrations not cached plus
 * cells × replicates audits.
 */
export async function reproduceErrorControl(options: ErrorControlOptions = {}): Promise<ErrorControlReproduction> {
  const started = performance.now();
  const out = resolve(options.outDirectory ?? join('results', 'error-control'));
  const { pools, labels, realAdult } = await studyPools(out, options);
  const config = errorControlConfig(pools, join(paperAConfigFolder(), 'paper-a.yaml'), options.overrides ?? [], out);
  for (const pool of pools) writePoolFile(pool.file, pool.sourced.auditPool);
  const progress = options.onProgress ?? (() => {});
  progress(`audits: ${config.experiment} (calibrating first when not cached)`);
  const summary = await runExperiment(config, {
    outDirectory: out,
    threads: options.threads,
    onProgress: (completed, total) => progress(`audits: ${config.experiment}`, completed, total),
  });
  const layoutOptions: ErrorControlLayoutOptions = { pools: labels, notice: NOTICE };
  writePaperLayoutManifest(out, { layout: 'error-control', options: { ...layoutOptions } });
  const report = await writeReport(out, { png: options.png });
  const result: ErrorControlReproduction = {
    outDirectory: out,
    pools: labels,
    realAdult,
    cells: summary.cells,
    rows: summary.rows,
    auditSeconds: summary.wallSeconds,
    threads: summary.threads,
    reportPath: report.reportPath,
    totalSeconds: (performance.now() - started) / 1000,
  };
  writeFileAtomic(join(out, 'README.md'), readme(result));
  return result;
}

function readme(result: ErrorControlReproduction): string {
  return [
    '# Error control beyond paper A',
    '',
    `> ${NOTICE}`,
    '',
    `Pools: ${result.pools.map((pool) => `${pool.label} (${pool.data})`).join('; ')}.`,
    result.realAdult === null ? '' : `Real Adult pools not included: ${result.realAdult}`,
    '',
    `- \`${ERROR_CONTROL_EXPERIMENT}\`: ${result.cells} cells, ${result.rows} replicate audits; report: ` +
      `\`${relative(result.outDirectory, result.reportPath) || 'report.html'}\` (times in its run.json provenance)`,
    '- The table per pool, metric, access regime and test: `tables/error-control.{arrow,csv,md}`; charts under ' +
      "`charts/`; every cell's operating point: `summary.*`.",
    '- Full precision: `fairaudit reproduce error-control --set replicates=2000 --set calibration.paths=4000 ' +
      '--set calibration.baseRates=null` (docs/error-control.md).',
    '',
  ].join('\n');
}

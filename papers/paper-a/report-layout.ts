import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { readPoolFile } from '../../src/audit/pool-io.js';
import type { PaperLayout, PaperLayoutInput, PaperLayoutParts } from '../../src/report/paper-layout.js';
import { layoutPaperTable, type PaperTableLayout } from '../../src/report/paper-table.js';
import type { PublishedCell } from '../../src/report/published.js';
import { inputError } from '../../src/util/errors.js';
import { beyondTables } from './beyond-the-paper.js';
import { CALIBRATED_SYNTHETIC_NOTICE, PAPER_A_DATASETS } from './calibrated-pools.js';
import { explainPaperAComparison, paperACellStatuses, paperAComparisonTable } from './comparison.js';
import { figure1Chart, type PublishedFigurePoint } from './figure-1.js';
import { paperAPublishedPath } from './files.js';
import type { PoolDataLabels } from './pool-data-labels.js';
import type { PoolProvenance } from './pool-sources.js';
import { PAPER_A_EXPERIMENT, PAPER_A_POOLS, PAPER_A_SENSITIVITY_EXPERIMENTS } from './pools.js';
import { paperATable1 } from './table-1.js';
import { paperATable2 } from './table-2.js';
import { paperATable3 } from './table-3.js';
import { paperATable4 } from './table-4.js';
import { paperATable5 } from './table-5.js';
import { toleranceReference, toleranceReferenceTable } from './tolerance-reference.js';
import { toleranceSensitivityCharts } from './tolerance-sensitivity.js';
import {
  type PaperAVariabilityRecord,
  paperASeedCharts,
  paperAVariability,
  parseVariabilityRecord,
} from './training-variability.js';

/** The options reproducePaperA writes to report-layout.json for each of its runs. */
export interface PaperALayoutOptions {
  /** The calibrated-data notice of the run, or null on real data. */
  notice: string | null;
  /** One sentence for chart subtitles saying which datasets are calibrated, or null. */
  chartNote: string | null;
  pools: PoolProvenance[];
  /** With --model-seeds/--split-seeds: the seed pairs' runs (absent otherwise, so a single run's file is unchanged). */
  variability?: PaperAVariabilityRecord;
}

/** paperATables(data?) lists paper A's five table layouts in table order, with a Data column when `data` is given. */
export function paperATables(data?: PoolDataLabels): PaperTableLayout[] {
  return [paperATable1(data), paperATable2(data), paperATable3(data), paperATable4(data), paperATable5(data)];
}

/** poolDataLabels(pools) says in words what each pool stands on, for the tables' Data column. */
export function poolDataLabels(pools: readonly PoolProvenance[]): PoolDataLabels {
  return new Map(
    pools.map((pool) => [
      pool.name,
      pool.origin === 'trained-model'
        ? `real data (trained model${pool.cached ? ', cached' : ''})`
        : 'CALIBRATED SYNTHETIC, not a reproduction',
    ]),
  );
}

/** figurePoints(cells) lists the published Figure 1 means (= Table 2's) from paper-a.json's cells. */
export function figurePoints(cells: readonly PublishedCell[]): PublishedFigurePoint[] {
  return cells
    .filter((cell) => cell.table === 'Figure 1' && typeof cell.value === 'number' && cell.where !== undefined)
    .map((cell) => ({
      pool: String(cell.where?.pool),
      access: String(cell.where?.access),
      mean: cell.value as number,
    }));
}

/** parseOptions(options, where) checks report-layout.json's paper A options. Throws InputError. */
function parseOptions(options: Record<string, unknown>, where: string): PaperALayoutOptions {
  const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
  if (!Array.isArray(options.pools))
    throw inputError({
      where: `${where}: options.pools`,
      expected: 'a list of pools (name, origin, reason, cached)',
      found: options.pools,
    });
  const pools = options.pools.map((entry, index) => {
    const pool = entry as Record<string, unknown>;
    if (typeof pool?.name !== 'string' || (pool.origin !== 'trained-model' && pool.origin !== 'calibrated-synthetic')) {
      throw inputError({
        where: `${where}: options.pools[${index}]`,
        expected: 'a name and an origin "trained-model" or "calibrated-synthetic"',
        found: entry,
      });
    }
    return {
      name: pool.name,
      origin: pool.origin,
      reason: text(pool.reason),
      cached: typeof pool.cached === 'boolean' ? pool.cached : null,
      ...(typeof pool.file === 'string' ? { file: pool.file } : {}),
    } satisfies PoolProvenance;
  });
  const variability = parseVariabilityRecord(options.variability, where);
  return {
    notice: text(options.notice),
    chartNote: text(options.chartNote),
    pools,
    ...(variability === null ? {} : { variability }),
  };
}

/**
 * datasetNotices(pools) says, per dataset whose pools are calibrated synthetic, that it
 * was not reproduced and why ("ACS not reproduced: ... the mirror has no feature
 * columns"). O(pools).
 */
export function datasetNotices(pools: readonly PoolProvenance[]): string[] {
  const notices: string[] = [];
  for (const dataset of PAPER_A_DATASETS) {
    const own = pools.filter((pool) =>
      PAPER_A_POOLS.some((entry) => entry.name === pool.name && entry.dataset === dataset),
    );
    const calibrated = own.filter((pool) => pool.origin === 'calibrated-synthetic');
    if (calibrated.length === 0) continue;
    const label = PAPER_A_POOLS.find((entry) => entry.dataset === dataset)?.datasetLabel ?? dataset;
    const reason = (calibrated[0].reason ?? '').replace(CALIBRATED_SYNTHETIC_NOTICE, '').trim();
    notices.push(
      `${label} not reproduced: its pools are calibrated synthetic data built from the published Table 1, so ` +
        `every cell of ` +
        `${calibrated.map((pool) => pool.name).join(', ')} (rows of Tables 1-5) is marked synthetic. ${reason}`.trim(),
    );
  }
  return notices;
}

/** The tolerance reference table of the main run, when the pool files (relative to the folder) are still there. */
function toleranceTable(input: PaperLayoutInput, options: PaperALayoutOptions) {
  const settings = (input.config?.settings ?? {}) as {
    scoreTolerance?: number;
    logitTolerance?: number;
    tolerance?: number;
  };
  const base = new Set(PAPER_A_POOLS.filter((pool) => pool.base).map((pool) => pool.name));
  const files = options.pools
    .filter((pool) => base.has(pool.name) && pool.file !== undefined)
    .map((pool) => ({ name: pool.name, file: resolve(input.directory, pool.file as string) }))
    .filter((pool) => existsSync(pool.file));
  if (files.length === 0) return null;
  const references = files
    .flatMap((pool) => {
      const audit = readPoolFile(pool.file);
      return (['sp', 'eo'] as const).map((metric) =>
        toleranceReference(pool.name, audit, metric, settings.tolerance ?? 0.05),
      );
    })
    .filter((reference) => reference !== null);
  const note = options.notice ? 'Calibrated synthetic pools: the logit spread is an assumption.' : undefined;
  return toleranceReferenceTable(
    references,
    { score: settings.scoreTolerance ?? 0.05, logit: settings.logitTolerance ?? 0.2 },
    note,
  );
}

/**
 * Paper A's report layout: for results/paper-a, Tables 1-5 (each row saying what data
 * it stands on), the shift-equivalent tolerance table, Figure 1 with the published
 * means, and the comparison annotated with why cells differ (with seed pairs, each
 * trained cell's seeds, its training-variability verdict and a seed-dot chart per
 * table); for the tolerance sweeps,
 * their charts. Every part says so when the pools are calibrated synthetic.
 * O(cells + published cells + pool rows).
 */
export const paperALayout: PaperLayout = {
  name: 'paper-a',
  experiments: [PAPER_A_EXPERIMENT, ...Object.values(PAPER_A_SENSITIVITY_EXPERIMENTS)],
  published: paperAPublishedPath(),
  async build(input): Promise<PaperLayoutParts> {
    const options = parseOptions(input.options, `${input.directory}/report-layout.json`);
    const notices = [...(options.notice ? [`${options.notice}`] : []), ...datasetNotices(options.pools)];
    const chartNote = options.chartNote ?? undefined;
    const parts: PaperLayoutParts = { description: options.notice ?? undefined, notices, tables: [] };
    if (input.experiment === PAPER_A_SENSITIVITY_EXPERIMENTS.score)
      parts.charts = toleranceSensitivityCharts('score', input.summaries, chartNote);
    if (input.experiment === PAPER_A_SENSITIVITY_EXPERIMENTS.logit)
      parts.charts = toleranceSensitivityCharts('logit', input.summaries, chartNote);
    if (input.experiment !== PAPER_A_EXPERIMENT) return parts;

    const labels = poolDataLabels(options.pools);
    parts.tables = paperATables(labels).map((layout) => layoutPaperTable(layout, input.summaries));
    // After Tables 2 and 3: the same audits with the error-controlled tests, marked as beyond the paper.
    parts.tables.splice(3, 0, ...(await beyondTables(input.directory, input.summaries)));
    const tolerances = toleranceTable(input, options);
    if (tolerances !== null) parts.tables.push(tolerances);
    const subtitle = chartNote ? `${chartNote} Red ticks: published means (Table 2).` : undefined;
    parts.charts = [figure1Chart(input.summaries, figurePoints(input.publishedCells), subtitle)];
    const variability = options.variability
      ? await paperAVariability(
          input.directory,
          options.variability,
          input.comparison,
          input.publishedCells,
          options.pools,
        )
      : null;
    if (variability !== null) parts.charts.push(...paperASeedCharts(variability));
    const explained = explainPaperAComparison(
      input.comparison,
      input.publishedCells,
      input.summaries,
      options.pools,
      variability,
    );
    parts.comparisonTable = paperAComparisonTable(explained);
    parts.statuses = paperACellStatuses(explained);
    parts.reasons = Object.fromEntries(
      explained.filter((row) => row.why !== '').map((row) => [row.id, `${row.verdict}: ${row.why}`]),
    );
    return parts;
  },
};

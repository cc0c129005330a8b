import { join, resolve } from 'node:path';
import type { ChartSpec } from '../../src/report/charts/chart-spec.js';
import { seedDotChart } from '../../src/report/charts/seed-dot-chart.js';
import { type ComparisonRow, comparePublished } from '../../src/report/compare-published.js';
import { findKindReporter } from '../../src/report/kind-reporters.js';
import type { PublishedCell } from '../../src/report/published.js';
import { readResultsFolder } from '../../src/report/results-folder.js';
import { summarizeResults } from '../../src/report/summarize-results.js';
import {
  type CellVariability,
  isSeedRecord,
  type SeedAxis,
  trainingVariability,
} from '../../src/report/training-variability.js';
import { inputError } from '../../src/util/errors.js';
import type { PoolProvenance } from './pool-sources.js';
import { PAPER_A_EXPERIMENT } from './pools.js';

/** One seed pair's run of paper A's main grid: its seeds, its axis, its results folder (relative; "." for seed 0, the
 * main run). */
export interface PaperASeedRun {
  readonly splitSeed: string;
  readonly modelSeed: string;
  readonly axis: SeedAxis;
  readonly directory: string;
}

/** What report-layout.json keeps of a reproduction with --model-seeds/--split-seeds: the counts and each pair's run. */
export interface PaperAVariabilityRecord {
  readonly modelSeeds: number;
  readonly splitSeeds: number;
  readonly runs: readonly PaperASeedRun[];
}

/** The tables (and Figure 1) whose trained cells get a seed-dot panel, in the paper's order. */
export const PAPER_A_VARIABILITY_TABLES = ['Table 1', 'Table 2', 'Table 3', 'Table 4', 'Table 5', 'Figure 1'] as const;

/**
 * parseVariabilityRecord(value, where) checks report-layout.json's options.variability:
 * absent or null gives null; otherwise counts and runs with seeds, an axis and a folder,
 * the first run the base pair in folder ".". Throws InputError naming the key. O(runs).
 */
export function parseVariabilityRecord(value: unknown, where: string): PaperAVariabilityRecord | null {
  if (value === undefined || value === null) return null;
  const valid = isSeedRecord(
    value,
    (run, index) => typeof run.directory === 'string' && (index > 0 || run.directory === '.'),
  );
  if (!valid) {
    throw inputError({
      where: `${where}: options.variability`,
      expected: 'modelSeeds, splitSeeds and runs [{splitSeed, modelSeed, axis, directory}], the base pair first in "."',
      found: value,
    });
  }
  return value as PaperAVariabilityRecord;
}

/**
 * paperAVariability(directory, record, base, cells, pools) reads each seed pair's
 * results folder (record.runs, relative to `directory`; seed 0 is the main run, whose
 * comparison is `base`), summarises it with its kind's reporter, compares it with the
 * same published cells, and sets every cell on a trained-model pool against its values
 * over the seeds (trainingVariability: spreads per axis and the three verdicts). Cells
 * on calibrated pools are left out: nothing about them varies with training. Throws
 * InputError when a seed folder is missing or unreadable. O(seed runs × (rows + cells)).
 */
export async function paperAVariability(
  directory: string,
  record: PaperAVariabilityRecord,
  base: readonly ComparisonRow[],
  cells: readonly PublishedCell[],
  pools: readonly PoolProvenance[],
): Promise<CellVariability[]> {
  const trained = new Set(pools.filter((pool) => pool.origin === 'trained-model').map((pool) => pool.name));
  const own = cells.filter((cell) => cell.experiment === PAPER_A_EXPERIMENT);
  const trainedIds = new Set(own.filter((cell) => trained.has(String(cell.where?.pool))).map((cell) => cell.id));
  const seeds = [];
  for (const run of record.runs) {
    let rows: readonly ComparisonRow[] = base;
    if (run.axis !== 'base') {
      const results = await readResultsFolder(resolve(directory, run.directory));
      const kind = findKindReporter(results.kind, `${join(results.directory, 'results.arrow')}: column kind`);
      rows = comparePublished(own, await summarizeResults(results, kind), kind);
    }
    seeds.push({
      splitSeed: run.splitSeed,
      modelSeed: run.modelSeed,
      axis: run.axis,
      rows: rows.filter((row) => trainedIds.has(row.id)),
    });
  }
  return trainingVariability(seeds);
}

/**
 * paperASeedCharts(cells, note) gives one seed-dot chart per table of paper A (and
 * Figure 1) that has trained cells: charts/paper-a-seeds-table-1 ... -figure-1.
 * O(cells × seeds).
 */
export function paperASeedCharts(cells: readonly CellVariability[], note?: string): ChartSpec[] {
  return PAPER_A_VARIABILITY_TABLES.flatMap((table) => {
    const id = `paper-a-seeds-${table.toLowerCase().replace(' ', '-')}`;
    const chart = seedDotChart(id, table, cells, note);
    return chart === null ? [] : [chart];
  });
}

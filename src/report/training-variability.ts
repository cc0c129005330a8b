import { type Spread, spreadOf } from '../models/seed-variability.js';
import type { ComparisonRow } from './compare-published.js';
import type { SummaryColumn, SummaryTable, SummaryValue } from './summary-table.js';

/** Which axis of training variability a seed run lies on: the base pair (seed 0), a varied model seed, a varied split
 * seed. */
export type SeedAxis = 'base' | 'model' | 'split';

/** One seed pair's comparison with the published cells (comparePublished rows of the run on that pair's models). */
export interface SeedComparison {
  readonly splitSeed: string;
  readonly modelSeed: string;
  readonly axis: SeedAxis;
  readonly rows: readonly ComparisonRow[];
}

/** The verdict on a trained cell once training variability is accounted for. */
export type VariabilityVerdict =
  | 'reproduced'
  | 'within training variability'
  | 'outside training variability'
  | 'missing';

/** One seed's value of a cell, with the Monte Carlo tolerance its comparison allowed. */
export interface SeedValue {
  readonly splitSeed: string;
  readonly modelSeed: string;
  readonly axis: SeedAxis;
  readonly value: number | string | null;
  /** The comparison's allowed |reproduced − published| for this seed (Monte Carlo error and rounding), or null. */
  readonly tolerance: number | null;
}

/** A trained cell over the seeds: the published value, seed 0, the distribution, the verdict and its reason. */
export interface CellVariability {
  readonly id: string;
  readonly table: string;
  readonly row: string;
  readonly column: string;
  readonly statistic: string | null;
  readonly published: number | string;
  /** The base pair's value (the single run's). */
  readonly seed0: number | string | null;
  readonly values: readonly SeedValue[];
  /** Numbers: over every seed pair, over the model-seed axis (base included), over the split-seed axis (base included);
   * null for labels or an axis without a second seed. */
  readonly spread: Spread | null;
  readonly modelSeeds: Spread | null;
  readonly splitSeeds: Spread | null;
  /** Labels: how many seeds gave each label ("reject": 9); null for numbers. */
  readonly counts: Readonly<Record<string, number>> | null;
  /** Numbers: [min_s (v_s − t_s), max_s (v_s + t_s)], the seeds' range widened by each seed's Monte Carlo tolerance
   * t_s. */
  readonly range: readonly [number, number] | null;
  readonly verdict: VariabilityVerdict;
  /** Why the verdict: for "outside", which side of the range and how far, or which labels the seeds gave. */
  readonly reason: string;
}

function format(value: number): string {
  return String(Number(value.toPrecision(4)));
}

function spreadText(spread: Spread | null): string {
  return spread === null ? '' : `${format(spread.min)}–${format(spread.max)}`;
}

function sameLabel(a: unknown, b: unknown): boolean {
  return String(a).trim().toLowerCase() === String(b).trim().toLowerCase();
}

function numericVerdict(
  published: number,
  values: readonly SeedValue[],
): Pick<CellVariability, 'range' | 'verdict' | 'reason'> {
  const finite = values.filter(
    (seed): seed is SeedValue & { value: number } => typeof seed.value === 'number' && Number.isFinite(seed.value),
  );
  if (finite.length === 0) return { range: null, verdict: 'missing', reason: 'no seed gave a value' };
  const low = Math.min(...finite.map((seed) => seed.value - (seed.tolerance ?? 0)));
  const high = Math.max(...finite.map((seed) => seed.value + (seed.tolerance ?? 0)));
  if (published >= low && published <= high) {
    return {
      range: [low, high],
      verdict: 'within training variability',
      reason:
        `published ${format(published)} lies inside the ${finite.length} seeds' ` +
        `range ${format(low)}–${format(high)} (values widened by each seed's Monte Carlo tolerance)`,
    };
  }
  const side = published > high ? 'above' : 'below';
  const distance = published > high ? published - high : low - published;
  return {
    range: [low, high],
    verdict: 'outside training variability',
    reason:
      `published ${format(published)} lies ${side} the ${finite.length} seeds' ` +
      `range ${format(low)}–${format(high)} (values widened by each seed's Monte Carlo tolerance) ` +
      `by ${format(distance)}`,
  };
}

function labelVerdict(
  published: string,
  values: readonly SeedValue[],
  counts: Record<string, number>,
): Pick<CellVariability, 'range' | 'verdict' | 'reason'> {
  const given = values.filter((seed) => seed.value !== null);
  if (given.length === 0) return { range: null, verdict: 'missing', reason: 'no seed gave a value' };
  const tally = Object.entries(counts)
    .map(([label, count]) => `${label} ${count}`)
    .join(', ');
  const matching = given.filter((seed) => sameLabel(seed.value, published)).length;
  if (matching > 0) {
    return {
      range: null,
      verdict: 'within training variability',
      reason: `${matching} of ${given.length} seeds give the published "${published}" (${tally})`,
    };
  }
  return {
    range: null,
    verdict: 'outside training variability',
    reason: `no seed of ${given.length} gives the published "${published}" (${tally})`,
  };
}

/**
 * isSeedRecord(value, isRun) is true when `value` looks like a recorded seed grid (the
 * `variability` of a report-layout.json): integer modelSeeds and splitSeeds, and a
 * non-empty list of runs, each with its split and model seed as text and an axis (base,
 * model or split) and passing the paper's own isRun check, the base pair first. O(runs).
 */
export function isSeedRecord(value: unknown, isRun: (run: Record<string, unknown>, index: number) => boolean): boolean {
  const record = value as { modelSeeds?: unknown; splitSeeds?: unknown; runs?: unknown } | null;
  const runs = Array.isArray(record?.runs) ? (record.runs as Array<Record<string, unknown> | null>) : null;
  return (
    Number.isInteger(record?.modelSeeds) &&
    Number.isInteger(record?.splitSeeds) &&
    runs !== null &&
    runs.length > 0 &&
    runs[0]?.axis === 'base' &&
    runs.every(
      (run, index) =>
        typeof run?.splitSeed === 'string' &&
        typeof run.modelSeed === 'string' &&
        ['base', 'model', 'split'].includes(run.axis as string) &&
        isRun(run, index),
    )
  );
}

/**
 * trainingVariability(seeds) sets every published cell against its values over seed
 * pairs (seeds[0] is the base pair, the single run; the others vary the model seed or
 * the split seed, seedAxes in src/models/train-seed-grid.ts): the distribution of a
 * number over all pairs and over each axis (spreadOf: min, median, max, mean, sample
 * sd), the labels' counts, and one verdict:
 * - "reproduced": the base pair's comparison is within its Monte Carlo tolerance (as
 *   without seeds);
 * - "within training variability": otherwise, a number whose published value lies in
 *   [min_s (v_s − t_s), max_s (v_s + t_s)] (t_s: seed s's comparison tolerance, i.e.
 *   its Monte Carlo error and rounding), or a label that some seed gives;
 * - "outside training variability": the rest, with the side and distance (numbers) or
 *   the labels the seeds gave; "missing" when the base pair has no value.
 * Cells are matched by id; a seed without a cell counts as no value. O(cells × seeds).
 * Throws RangeError when seeds is empty or seeds[0] is not the base pair.
 */
export function trainingVariability(seeds: readonly SeedComparison[]): CellVariability[] {
  if (seeds.length === 0 || seeds[0].axis !== 'base')
    throw new RangeError('trainingVariability: seeds[0] must be the base pair');
  const byId = seeds.map((seed) => new Map(seed.rows.map((row) => [row.id, row])));
  return seeds[0].rows.map((base) => {
    const values: SeedValue[] = seeds.map((seed, k) => {
      const row = byId[k].get(base.id);
      return {
        splitSeed: seed.splitSeed,
        modelSeed: seed.modelSeed,
        axis: seed.axis,
        value: row?.reproduced ?? null,
        tolerance: row?.tolerance ?? null,
      };
    });
    const numbers = (axis?: SeedAxis): number[] =>
      values
        .filter((seed) => axis === undefined || seed.axis === 'base' || seed.axis === axis)
        .flatMap((seed) => (typeof seed.value === 'number' && Number.isFinite(seed.value) ? [seed.value] : []));
    const spreadOver = (list: number[], least: number) => (list.length >= least ? spreadOf(list) : null);
    const numeric = typeof base.published === 'number';
    const counts: Record<string, number> = {};
    if (!numeric)
      for (const seed of values)
        if (seed.value !== null) counts[String(seed.value)] = (counts[String(seed.value)] ?? 0) + 1;
    const common = {
      id: base.id,
      table: base.table,
      row: base.row,
      column: base.column,
      statistic: base.statistic,
      published: base.published,
      seed0: base.reproduced,
      values,
      spread: numeric ? spreadOver(numbers(), 1) : null,
      modelSeeds: numeric ? spreadOver(numbers('model'), 2) : null,
      splitSeeds: numeric ? spreadOver(numbers('split'), 2) : null,
      counts: numeric ? null : counts,
    };
    if (base.status === 'missing' || base.status === 'unmapped')
      return { ...common, range: null, verdict: 'missing', reason: base.note };
    const judged = numeric
      ? numericVerdict(base.published as number, values)
      : labelVerdict(String(base.published), values, counts);
    if (base.status === 'within') return { ...common, range: judged.range, verdict: 'reproduced', reason: '' };
    return { ...common, ...judged };
  });
}

/** The columns variabilityRecord fills, for tables that show a cell's seeds beside the published value. */
export const VARIABILITY_COLUMNS: readonly SummaryColumn[] = [
  {
    name: 'seeds',
    label: 'Seeds',
    type: 'number',
    description: 'seed pairs with a value (the base pair, the varied model seeds, the varied split seeds)',
  },
  { name: 'seeds_min', label: 'Min', type: 'number', digits: 4 },
  { name: 'seeds_median', label: 'Median', type: 'number', digits: 4 },
  { name: 'seeds_max', label: 'Max', type: 'number', digits: 4 },
  { name: 'seeds_mean', label: 'Mean', type: 'number', digits: 4 },
  { name: 'seeds_sd', label: 'sd', type: 'number', digits: 4 },
  {
    name: 'model_seeds',
    label: 'Model seeds',
    type: 'string',
    description: 'min–max over the model seeds on the base split',
  },
  {
    name: 'split_seeds',
    label: 'Split seeds',
    type: 'string',
    description: 'min–max over the split seeds with the base model seed',
  },
  {
    name: 'seed_labels',
    label: 'Seed labels',
    type: 'string',
    description: 'labels (decisions): how many seeds gave each',
  },
];

/** variabilityRecord(cell) is a cell's VARIABILITY_COLUMNS (empty for labels' numeric columns and vice versa).
 * O(labels). */
export function variabilityRecord(cell: CellVariability | undefined): Record<string, SummaryValue> {
  const spread = cell?.spread ?? null;
  return {
    seeds: cell === undefined ? null : cell.values.filter((seed) => seed.value !== null).length,
    seeds_min: spread?.min ?? null,
    seeds_median: spread?.median ?? null,
    seeds_max: spread?.max ?? null,
    seeds_mean: spread?.mean ?? null,
    seeds_sd: spread?.sd ?? null,
    model_seeds: spreadText(cell?.modelSeeds ?? null),
    split_seeds: spreadText(cell?.splitSeeds ?? null),
    seed_labels:
      cell?.counts == null
        ? ''
        : Object.entries(cell.counts)
            .map(([label, count]) => `${label} ${count}`)
            .join(', '),
  };
}

/** verdictCounts(cells) counts the cells of each verdict, in the order of VariabilityVerdict. O(cells). */
export function verdictCounts(cells: readonly CellVariability[]): Record<VariabilityVerdict, number> {
  const counts: Record<VariabilityVerdict, number> = {
    reproduced: 0,
    'within training variability': 0,
    'outside training variability': 0,
    missing: 0,
  };
  for (const cell of cells) counts[cell.verdict] += 1;
  return counts;
}

/**
 * variabilityTable(cells, id, title, caption) lays cells over seeds out for the
 * reporter's writers: table, row, column, the published value, seed 0, the seeds'
 * distribution (VARIABILITY_COLUMNS), the verdict and its reason. O(cells).
 */
export function variabilityTable(
  cells: readonly CellVariability[],
  id: string,
  title: string,
  caption: string,
): SummaryTable {
  const text = (value: number | string | null): SummaryValue =>
    value === null ? null : typeof value === 'number' ? String(Number(value.toPrecision(6))) : value;
  return {
    id,
    title,
    caption,
    columns: [
      { name: 'table', label: 'Table', type: 'string' },
      { name: 'row', label: 'Row', type: 'string' },
      { name: 'column', label: 'Column', type: 'string' },
      { name: 'published', label: 'Published', type: 'string' },
      { name: 'seed0', label: 'Seed 0', type: 'string', description: 'the single run (the base pair of seeds)' },
      ...VARIABILITY_COLUMNS,
      { name: 'verdict', label: 'Verdict', type: 'string' },
      { name: 'why', label: 'Why', type: 'string', wrap: true },
      { name: 'id', label: 'Cell id', type: 'string' },
    ],
    rows: cells.map((cell) => ({
      table: cell.table,
      row: cell.row,
      column: cell.column,
      published: text(cell.published),
      seed0: text(cell.seed0),
      ...variabilityRecord(cell),
      verdict: cell.verdict,
      why: cell.reason,
      id: cell.id,
    })),
  };
}

import { createRandom } from '../util/random.js';
import type { ExperimentConfig } from './config.js';
import type { KindRunner } from './kind-runner.js';
import { type Plan, replicateSeed } from './plan.js';

/** A grid axis that cannot change the audits of some cells, and why. */
export interface IgnoredAxis {
  /** The settings the axis varies ("tolerance"; a linked axis's, comma-separated). */
  setting: string;
  /** The grid key it is written under ("tolerance", or "zip" for a linked axis). */
  axis: string;
  /** How many cells ignore it, of how many. */
  cells: number;
  of: number;
  /** The kind's reason, of the first cell that ignores it. */
  why: string;
}

/**
 * ignoredAxes(config, kind, maxCells) lists each grid setting some cells ignore, by the
 * kind's ignoredSetting (nothing when the kind has none). Looks at the first maxCells
 * cells. O(min(cells, maxCells) × axes).
 * @param config a validated config
 * @param kind its kind
 * @param maxCells how many cells to look at (default 10,000)
 * @returns one entry per setting that some cell ignores
 * @example ignoredAxes(config, kind)[0] // { setting: 'tolerance', cells: 6, of: 9, ... }
 */
export function ignoredAxes(config: ExperimentConfig, kind: KindRunner, maxCells = 10_000): IgnoredAxis[] {
  if (kind.ignoredSetting === undefined) return [];
  const count = Math.min(config.cellCount, maxCells);
  const found: IgnoredAxis[] = [];
  for (const axis of config.grid) {
    // A linked axis (grid.zip) changes a cell when any of its settings does: a decision cell uses its
    // tolerance, a score cell its scoreTolerance. A plain axis is its one setting.
    const settings = axis.linked ?? [axis.key];
    let cells = 0;
    let why = '';
    for (let index = 0; index < count; index++) {
      const cell = config.cellAt(index).settings;
      const reasons = settings.map((setting) => kind.ignoredSetting?.(setting, cell) ?? null);
      if (reasons.some((reason) => reason === null)) continue;
      cells++;
      why ||= reasons[0] as string;
    }
    if (cells > 0) found.push({ setting: settings.join(', '), axis: axis.key, cells, of: count, why });
  }
  return found;
}

/** What a run of a plan is expected to cost. */
export interface PlanEstimate {
  /** Measured milliseconds per replicate (mean over the sampled cells). */
  millisecondsPerReplicate: number;
  /** Expected wall seconds on `threads` threads (replicates × time per replicate / threads). */
  seconds: number;
  threads: number;
  /** Expected size of results.arrow: replicates × bytes per row (8 per number, strings as sampled). */
  bytes: number;
  /** How many cells and replicates were timed. */
  sampledCells: number;
  sampledReplicates: number;
}

/**
 * estimatePlan(plan, kind, origin, threads, sample) times `sample` replicates of up to
 * three cells (first, middle, last: they may differ in cost) through the kind itself,
 * with the plan's own replicate seeds, and scales to the whole plan; disk is the
 * number of rows times the bytes one sampled row takes in Arrow (8 per number, 1 per
 * flag, the sampled string lengths, the grid columns and the seed). Preparing a cell
 * (loading a pool) is not counted. O(sample × 3 replicates + preparing 3 cells).
 */
export async function estimatePlan(
  plan: Plan,
  kind: KindRunner,
  origin: Parameters<KindRunner['prepare']>[1],
  threads: number,
  sample = 3,
): Promise<PlanEstimate> {
  const indices = [...new Set([0, Math.floor(plan.cellCount / 2), plan.cellCount - 1])];
  let milliseconds = 0;
  let replicates = 0;
  let rowBytes = 0;
  for (const index of indices) {
    const cell = plan.cellAt(index);
    const context = await kind.prepare(cell.settings, origin);
    const count = Math.min(sample, plan.replicates);
    const started = performance.now();
    for (let r = 0; r < count; r++) {
      const row = kind.runReplicate(context, cell.settings, createRandom(replicateSeed(plan.seed, cell.key, r)));
      if (index === 0 && r === 0) rowBytes = bytesOf(row) + bytesOf(cell.columns) + 80;
    }
    milliseconds += performance.now() - started;
    replicates += count;
  }
  const perReplicate = replicates > 0 ? milliseconds / replicates : 0;
  return {
    millisecondsPerReplicate: perReplicate,
    seconds: (perReplicate * plan.tasks) / 1000 / Math.max(1, threads),
    threads,
    bytes: rowBytes * plan.tasks,
    sampledCells: indices.length,
    sampledReplicates: replicates,
  };
}

function bytesOf(row: Record<string, unknown>): number {
  let bytes = 0;
  for (const value of Object.values(row)) {
    if (typeof value === 'number') bytes += 8;
    else if (typeof value === 'boolean') bytes += 1;
    else bytes += String(value).length + 4;
  }
  return bytes;
}

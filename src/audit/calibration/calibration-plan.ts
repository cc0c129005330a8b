import { checkTolerance } from '../../stats/check-tolerance.js';
import { compareCountDifference } from '../../stats/count-gap-comparison.js';
import { checkErrorLevels } from '../../stats/thresholds.js';
import { inputError } from '../../util/errors.js';
import { deriveSeed } from '../../util/random.js';
import { ACCESS_REGIMES, type AccessRegime } from '../access-regime.js';
import { isShuffledOrder, type ShuffledQueryOrder } from '../query-order.js';
import type { CountCell, ThresholdGrid } from './threshold-paths.js';

/** The audit setting whose GLR thresholds are calibrated. */
export interface CalibrationSetting {
  /**
   * 'decision': the Bernoulli GLR; the composite null is covered by a grid of base rates,
   * so only the group sizes matter. 'score' / 'logit': the Gaussian proxy GLR, calibrated
   * on the pool's own values by null projection (`group` and `value` required).
   */
  readonly access: AccessRegime;
  /** Rows of group a and b in the metric's pool (SP: all rows; EO: label-1 rows). */
  readonly countA: number;
  readonly countB: number;
  /** Score / logit access: each row's group (0/1) and observed value. */
  readonly group?: Uint8Array;
  readonly value?: Float64Array;
  /** delta (decision) or the proxy tolerance (score, logit). */
  readonly tolerance: number;
  readonly budget: number;
  readonly minimumPerGroup: number;
  readonly order: ShuffledQueryOrder;
  /** Target: sup over compliant pools of P(reject) <= alpha. */
  readonly alpha: number;
  /** Target: sup over violating pools of P(accept) <= beta. */
  readonly beta: number;
}

/** How much Monte Carlo, and where. */
export interface CalibrationOptions {
  /** Master seed: every chunk's generator is deriveSeed(seed, cell, stage, index). */
  readonly seed: string;
  /** Simulated audits per pool for tuning (default 4000). */
  readonly paths?: number;
  /** Fresh simulated audits per pool per certification round (default: paths). */
  readonly certificationPaths?: number;
  /** Monte Carlo confidence of the certificate, simultaneous over pools and rounds (default 0.95). */
  readonly confidence?: number;
  /** Candidate thresholds (default step 0.05 up to 15 and down to -15). */
  readonly grid?: ThresholdGrid;
  /**
   * Decision access: where the lower of the two rates sits, as fractions of [0, 1 -
   * tolerance] (default 0, 0.01, 0.03, 0.1, 0.2, ..., 0.9, 0.97, 0.99, 1).
   */
  readonly baseRates?: readonly number[];
  /** Certification rounds before giving up (default 3). */
  readonly rounds?: number;
  /** Simulated audits per chunk, the unit of work a thread runs (default 500). */
  readonly chunkPaths?: number;
}

/**
 * One simulated pool. Decision access: a pool with the group sizes, group a at rate
 * lowerRate and group b above it by the tolerance, on the compliant side (role 'null',
 * the largest count gap <= tolerance), the violating side ('alternative', the smallest
 * >= tolerance), or exactly on it ('boundary', both). By symmetry (complementing every
 * decision swaps which group is higher and maps rate p to 1 - p, leaving the GLR path
 * unchanged) pools with a higher cover every direction. Score / logit access: the pool's
 * null projection to gap +tolerance or -tolerance ('boundary').
 */
export interface CalibrationCell {
  readonly key: string;
  readonly role: 'null' | 'alternative' | 'boundary';
  /** Signed gap (mean of b minus mean of a) of the simulated pool. */
  readonly gap: number;
  /** Decision access: the counts; null for score / logit. */
  readonly counts: CountCell | null;
  /** Decision access: group a's rate (the lower one); NaN for score / logit. */
  readonly lowerRate: number;
}

/**
 * A unit of Monte Carlo work: `paths` simulated audits of each of its cells with one
 * generator. Decision-access chunks cover every cell of the plan (tuning, pilot,
 * certification) or every price cell (price): their paths share query sequences
 * (CoupledQueries). Score and logit chunks have one cell.
 */
export interface CalibrationChunk {
  /** Index into plan.cells, or into plan.priceCells when `price` is true: the first cell of the chunk. */
  readonly cell: number;
  /** The chunk's cells: cell .. cell + cellCount - 1 (default 1). */
  readonly cellCount?: number;
  readonly price?: boolean;
  readonly index: number;
  readonly paths: number;
  readonly seed: string;
}

/** A validated calibration: the setting, the resolved options, the cells and the tuning chunks. */
export interface CalibrationPlan {
  readonly setting: CalibrationSetting;
  readonly seed: string;
  readonly paths: number;
  readonly certificationPaths: number;
  readonly confidence: number;
  readonly grid: ThresholdGrid;
  readonly rounds: number;
  readonly chunkPaths: number;
  /** Decision access: the base-rate fractions of the cells (options.baseRates or the default). */
  readonly baseRates: readonly number[];
  readonly cells: readonly CalibrationCell[];
  readonly chunks: readonly CalibrationChunk[];
  /**
   * Where the price of the calibrated test is measured (after certification, with
   * certificationPaths fresh audits each): a pool at gap 0 and one at a clear violation,
   * gap 2 tolerance. Decision access: group a at rate 1/2 for gap 0, a at 1/2 - tolerance
   * and b at 1/2 + tolerance for the violation; score / logit access: the pool projected to
   * those gaps.
   */
  readonly priceCells: readonly CalibrationCell[];
}

export const DEFAULT_BASE_RATES: readonly number[] = [
  0, 0.01, 0.03, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.97, 0.99, 1,
];
export const DEFAULT_THRESHOLD_GRID: ThresholdGrid = { step: 0.05, upperCount: 300, lowerCount: 300 };

const WHERE = 'calibrateGlrThresholds';

/** chunkCellCount(chunk) is how many cells the chunk simulates (from chunk.cell on). */
export function chunkCellCount(chunk: CalibrationChunk): number {
  return chunk.cellCount ?? 1;
}

/** True when the plan's cells share query sequences: decision access (every cell given by counts). */
function coupled(cells: readonly CalibrationCell[]): boolean {
  return cells.every((cell) => cell.counts !== null);
}

function checkInteger(value: number, minimum: number, key: string): void {
  if (!(Number.isSafeInteger(value) && value >= minimum)) {
    throw inputError({ where: `${WHERE}: ${key}`, expected: `an integer >= ${minimum}`, found: value });
  }
}

/** The sign of countB-rate minus countA-rate minus tolerance, exactly. */
function sideOf(countA: number, positivesA: number, countB: number, positivesB: number, tolerance: number): number {
  return compareCountDifference(countA, positivesA, countB, positivesB, tolerance);
}

/** The decision-access cells over the base-rate grid (deduplicated). */
function decisionCells(setting: CalibrationSetting, baseRates: readonly number[]): CalibrationCell[] {
  const { countA, countB, tolerance } = setting;
  const cells: CalibrationCell[] = [];
  const seen = new Set<string>();
  for (const fraction of baseRates) {
    const positivesA = Math.round(fraction * (1 - tolerance) * countA);
    const rateA = positivesA / countA;
    // The largest count of b on the compliant side (b's rate - a's rate <= tolerance).
    let compliant = Math.min(countB, Math.floor((rateA + tolerance) * countB));
    while (compliant > 0 && sideOf(countA, positivesA, countB, compliant, tolerance) > 0) compliant--;
    while (compliant < countB && sideOf(countA, positivesA, countB, compliant + 1, tolerance) <= 0) compliant++;
    const onBoundary = sideOf(countA, positivesA, countB, compliant, tolerance) === 0;
    const add = (role: CalibrationCell['role'], positivesB: number) => {
      const key = `a ${positivesA}/${countA}, b ${positivesB}/${countB}`;
      if (seen.has(key)) return;
      seen.add(key);
      cells.push({
        key,
        role,
        gap: positivesB / countB - rateA,
        counts: { countA, positivesA, countB, positivesB },
        lowerRate: rateA,
      });
    };
    if (onBoundary) add('boundary', compliant);
    else {
      add('null', compliant);
      if (compliant + 1 <= countB) add('alternative', compliant + 1);
    }
  }
  return cells;
}

/** Throws InputError unless a score or logit setting has every row's group and a finite value, matching its counts. */
function checkProxyValues(setting: CalibrationSetting): void {
  const { group, value } = setting;
  if (!(group instanceof Uint8Array) || !(value instanceof Float64Array) || group.length !== value.length) {
    throw inputError({
      where: `${WHERE}: values`,
      expected: `the group and ${setting.access} of every row (equal lengths)`,
      found: 'none',
    });
  }
  let countB = 0;
  for (let row = 0; row < group.length; row++) {
    countB += group[row];
    if (!Number.isFinite(value[row])) {
      throw inputError({
        where: `${WHERE}: ${setting.access} of row ${row + 1}`,
        expected: 'a finite number',
        found: value[row],
      });
    }
  }
  if (countB !== setting.countB || group.length - countB !== setting.countA) {
    throw inputError({
      where: `${WHERE}: group sizes`,
      expected: `the counts of the groups in the values (a ${group.length - countB}, b ${countB})`,
      found: { countA: setting.countA, countB: setting.countB },
    });
  }
}

/** The tuning chunks: one series over every cell when the cells share query sequences, else one series a cell. */
function tuningChunks(
  cells: readonly CalibrationCell[],
  paths: number,
  chunkPaths: number,
  seed: string,
): CalibrationChunk[] {
  const chunks: CalibrationChunk[] = [];
  if (coupled(cells)) {
    for (let start = 0, chunk = 0; start < paths; start += chunkPaths, chunk++) {
      chunks.push({
        cell: 0,
        cellCount: cells.length,
        index: chunk,
        paths: Math.min(chunkPaths, paths - start),
        seed: deriveSeed(seed, 'calibrate', 'coupled', 'tune', chunk),
      });
    }
  } else {
    cells.forEach((cell, index) => {
      for (let start = 0, chunk = 0; start < paths; start += chunkPaths, chunk++) {
        chunks.push({
          cell: index,
          index: chunk,
          paths: Math.min(chunkPaths, paths - start),
          seed: deriveSeed(seed, 'calibrate', cell.key, 'tune', chunk),
        });
      }
    });
  }
  return chunks;
}

/**
 * planCalibration(setting, options) validates the setting and options and lays out the
 * calibration: the simulated pools (cells) and the tuning chunks with their seeds. Pure:
 * the same inputs give the same plan. O(cells x paths / chunkPaths).
 * Throws InputError naming the setting: an unknown access regime, a pool with one group
 * (countA or countB < 1), a tolerance outside (0, 1) (decision, score) or <= 0 (logit),
 * alpha or beta outside (0, 1) or alpha + beta >= 1, a budget or minimumPerGroup that is
 * not an integer >= 1, an order other than random / balanced, score / logit values that
 * are missing or do not match the group sizes, bad options.
 */
export function planCalibration(setting: CalibrationSetting, options: CalibrationOptions): CalibrationPlan {
  if (!ACCESS_REGIMES.includes(setting.access)) {
    throw inputError({ where: `${WHERE}: access`, expected: ACCESS_REGIMES.join(', '), found: setting.access });
  }
  if (
    !(
      Number.isSafeInteger(setting.countA) &&
      Number.isSafeInteger(setting.countB) &&
      setting.countA >= 1 &&
      setting.countB >= 1
    )
  ) {
    throw inputError({
      where: `${WHERE}: group sizes`,
      expected: 'at least one row in each of the two groups',
      found: { countA: setting.countA, countB: setting.countB },
    });
  }
  checkTolerance(setting.tolerance, `${WHERE}: tolerance`, setting.access === 'logit' ? Number.POSITIVE_INFINITY : 1);
  checkErrorLevels(setting.alpha, setting.beta, WHERE);
  checkInteger(setting.budget, 1, 'budget');
  checkInteger(setting.minimumPerGroup, 1, 'minimumPerGroup');
  if (!isShuffledOrder(setting.order)) {
    throw inputError({
      where: `${WHERE}: order`,
      expected: '"random" or "balanced" (a given order has no randomness to calibrate)',
      found: setting.order,
    });
  }
  if (setting.access !== 'decision') checkProxyValues(setting);
  if (typeof options.seed !== 'string' || options.seed === '') {
    throw inputError({ where: `${WHERE}: seed`, expected: 'a non-empty string', found: options.seed });
  }
  const paths = options.paths ?? 4000;
  const certificationPaths = options.certificationPaths ?? paths;
  const chunkPaths = options.chunkPaths ?? 500;
  const rounds = options.rounds ?? 3;
  checkInteger(paths, 1, 'paths');
  checkInteger(certificationPaths, 1, 'certificationPaths');
  checkInteger(chunkPaths, 1, 'chunkPaths');
  checkInteger(rounds, 1, 'rounds');
  const confidence = options.confidence ?? 0.95;
  if (!(confidence > 0 && confidence < 1)) {
    throw inputError({ where: `${WHERE}: confidence`, expected: 'a number in (0, 1)', found: confidence });
  }
  const grid = options.grid ?? DEFAULT_THRESHOLD_GRID;
  if (!(grid.step > 0 && Number.isFinite(grid.step)))
    throw inputError({ where: `${WHERE}: grid.step`, expected: 'a positive number', found: grid.step });
  checkInteger(grid.upperCount, 1, 'grid.upperCount');
  checkInteger(grid.lowerCount, 1, 'grid.lowerCount');
  const baseRates = options.baseRates ?? DEFAULT_BASE_RATES;
  for (const rate of baseRates) {
    if (!(rate >= 0 && rate <= 1))
      throw inputError({ where: `${WHERE}: baseRates`, expected: 'fractions in [0, 1]', found: baseRates });
  }
  const cells: CalibrationCell[] =
    setting.access === 'decision'
      ? decisionCells(setting, baseRates)
      : [1, -1].map((sign) => ({
          key: `${setting.access} projected to gap ${sign > 0 ? '+' : '-'}${setting.tolerance}`,
          role: 'boundary' as const,
          gap: sign * setting.tolerance,
          counts: null,
          lowerRate: Number.NaN,
        }));
  const chunks = tuningChunks(cells, paths, chunkPaths, options.seed);
  const priceCells = setting.access === 'decision' ? decisionPriceCells(setting) : proxyPriceCells(setting);
  return {
    setting,
    seed: options.seed,
    paths,
    certificationPaths,
    confidence,
    grid,
    rounds,
    chunkPaths,
    baseRates,
    cells,
    chunks,
    priceCells,
  };
}

/** The decision-access price cells: gap 0 at rate 1/2, and a at 1/2 - tolerance, b at 1/2 + tolerance. */
function decisionPriceCells(setting: CalibrationSetting): CalibrationCell[] {
  const { countA, countB, tolerance } = setting;
  const cell = (role: CalibrationCell['role'], rateA: number, rateB: number): CalibrationCell => {
    const positivesA = Math.round(rateA * countA);
    const positivesB = Math.round(rateB * countB);
    const key = `price: a ${positivesA}/${countA}, b ${positivesB}/${countB}`;
    return {
      key,
      role,
      gap: positivesB / countB - positivesA / countA,
      counts: { countA, positivesA, countB, positivesB },
      lowerRate: positivesA / countA,
    };
  };
  return [cell('null', 0.5, 0.5), cell('alternative', 0.5 - tolerance, 0.5 + tolerance)];
}

/** The score / logit price cells: the pool projected to gap 0 and to gap 2 tolerance. */
function proxyPriceCells(setting: CalibrationSetting): CalibrationCell[] {
  return [
    { key: `price: ${setting.access} projected to gap 0`, role: 'null', gap: 0, counts: null, lowerRate: Number.NaN },
    {
      key: `price: ${setting.access} projected to gap +${2 * setting.tolerance}`,
      role: 'alternative',
      gap: 2 * setting.tolerance,
      counts: null,
      lowerRate: Number.NaN,
    },
  ];
}

/** priceChunks(plan) lays out the price simulations: certificationPaths audits of each price cell. */
export function priceChunks(plan: CalibrationPlan): CalibrationChunk[] {
  return chunksOf(plan, plan.priceCells, ['price'], true);
}

function chunksOf(
  plan: CalibrationPlan,
  cells: readonly CalibrationCell[],
  stage: ReadonlyArray<string | number>,
  price: boolean,
): CalibrationChunk[] {
  const chunks: CalibrationChunk[] = [];
  if (coupled(cells)) {
    for (let start = 0, chunk = 0; start < plan.certificationPaths; start += plan.chunkPaths, chunk++) {
      chunks.push({
        cell: 0,
        cellCount: cells.length,
        index: chunk,
        paths: Math.min(plan.chunkPaths, plan.certificationPaths - start),
        seed: deriveSeed(plan.seed, 'calibrate', 'coupled', ...stage, chunk),
        ...(price ? { price: true } : {}),
      });
    }
    return chunks;
  }
  cells.forEach((cell, index) => {
    for (let start = 0, chunk = 0; start < plan.certificationPaths; start += plan.chunkPaths, chunk++) {
      chunks.push({
        cell: index,
        index: chunk,
        paths: Math.min(plan.chunkPaths, plan.certificationPaths - start),
        seed: deriveSeed(plan.seed, 'calibrate', cell.key, ...stage, chunk),
        ...(price ? { price: true } : {}),
      });
    }
  });
  return chunks;
}

/** certificationChunks(plan, round) lays out round `round`'s fresh simulations (new seeds per round). */
export function certificationChunks(plan: CalibrationPlan, round: number): CalibrationChunk[] {
  return chunksOf(plan, plan.cells, ['certify', round], false);
}

/** Simulated audits per cell of the pilot that places the tuning window (pilotChunks). */
export const PILOT_PATHS = 100;

/**
 * pilotChunks(plan) lays out the pilot of a decision-access tuning: two chunks of together
 * min(PILOT_PATHS, plan.paths) audits of every cell, with seeds of their own, recorded on the
 * whole grid. It only places the window the tuning records exactly (pilotWindow); the
 * thresholds come from the tuning itself, so the pilot changes no result. O(cells).
 */
export function pilotChunks(plan: CalibrationPlan): CalibrationChunk[] {
  if (coupled(plan.cells)) {
    // Two chunks, so that two threads share the pilot.
    const paths = Math.min(PILOT_PATHS, plan.paths);
    const first = Math.ceil(paths / 2);
    return [first, paths - first]
      .filter((count) => count > 0)
      .map((count, index) => ({
        cell: 0,
        cellCount: plan.cells.length,
        index,
        paths: count,
        seed: deriveSeed(plan.seed, 'calibrate', 'coupled', 'pilot', index),
      }));
  }
  return plan.cells.map((cell, index) => ({
    cell: index,
    index: 0,
    paths: Math.min(PILOT_PATHS, plan.paths),
    seed: deriveSeed(plan.seed, 'calibrate', cell.key, 'pilot', 0),
  }));
}

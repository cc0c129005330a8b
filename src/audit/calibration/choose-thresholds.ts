import { clopperPearsonLower, clopperPearsonUpper, largestCountBelow } from '../../stats/clopper-pearson.js';
import { inputError } from '../../util/errors.js';
import type { CalibrationPlan } from './calibration-plan.js';
import {
  binIndex,
  FULL_WINDOW,
  lowerThreshold,
  type ThresholdPathCounts,
  type TuningWindow,
  upperThreshold,
} from './threshold-paths.js';

/** A cell's error at given thresholds: count of wrong decisions of `paths` simulated audits. */
export interface CellError {
  readonly cell: string;
  readonly role: 'null' | 'alternative' | 'boundary';
  /** Which error: a rejection of a compliant pool, or an acceptance of a violating one. */
  readonly error: 'reject' | 'accept';
  readonly count: number;
  readonly paths: number;
  readonly rate: number;
  /** Clopper-Pearson upper bound at the plan's per-test confidence (simultaneous over cells and rounds). */
  readonly upperBound: number;
}

/** The thresholds chosen on the tuning simulations. */
export interface ThresholdChoice {
  readonly upper: number;
  readonly lower: number;
  readonly upperIndex: number;
  readonly lowerIndex: number;
  /** The per-test confidence of every Clopper-Pearson bound: 1 - (1 - confidence) / (tests x rounds). */
  readonly testConfidence: number;
  /** Every tuning cell's error at the chosen thresholds. */
  readonly tuning: readonly CellError[];
  /**
   * Monte Carlo uncertainty of the thresholds: upper thresholds below upperInterval[0] give
   * a worst-cell rejection rate significantly above alpha, those from upperInterval[1] on one
   * significantly at most alpha (two-sided 95% Clopper-Pearson at the chosen lower threshold);
   * likewise lowerInterval for beta at the chosen upper threshold (lowerInterval[0] >= [1]).
   */
  readonly upperInterval: readonly [number, number];
  readonly lowerInterval: readonly [number, number];
}

/** The number of separately bounded error rates of a plan: null-side plus alternative-side cells. */
export function errorTests(plan: CalibrationPlan): number {
  let tests = 0;
  for (const cell of plan.cells) tests += cell.role === 'boundary' ? 2 : 1;
  return tests;
}

/** The per-test confidence that makes all bounds of all rounds hold together at plan.confidence. */
export function testConfidence(plan: CalibrationPlan): number {
  return 1 - (1 - plan.confidence) / (errorTests(plan) * plan.rounds);
}

/**
 * The tuning criterion: rate + 2 (upperBound - rate), a margin of two Clopper-Pearson
 * half-widths, so that fresh certification simulations (one half-width) pass with high
 * probability.
 */
function tuningValue(count: number, paths: number, confidence: number): number {
  const rate = count / paths;
  return rate + 2 * (clopperPearsonUpper(count, paths, confidence) - rate);
}

/** Largest count whose tuning value is <= limit (-1 if none). Binary search. */
function tuningLimit(paths: number, limit: number, confidence: number): number {
  if (tuningValue(0, paths, confidence) > limit) return -1;
  let low = 0;
  let high = paths;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (tuningValue(middle, paths, confidence) <= limit) low = middle;
    else high = middle - 1;
  }
  return low;
}

/** Largest count whose two-sided 95% lower bound is <= limit. */
function lowerBoundLimit(paths: number, limit: number): number {
  let low = 0;
  let high = paths;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (clopperPearsonLower(middle, paths, 0.975) <= limit) low = middle;
    else high = middle - 1;
  }
  return low;
}

/**
 * tailCounts(bins, rows, columns, maximum) is, for each row r and column c, the paths of
 * row r's histogram (columns + 1 bins, kept as binIndex says) above bin c: tail[r * columns
 * + c] = Σ over c' ≥ c of row r's bin c' + 1; it raises maximum to the tail where the tail
 * is larger (the worst cell). O(rows x columns).
 */
function tailCounts(bins: Float64Array, rows: number, columns: number, maximum: Float64Array): Float64Array {
  const tail = new Float64Array(rows * columns);
  for (let r = 0; r < rows; r++) {
    let above = 0;
    for (let c = columns - 1; c >= 0; c--) {
      above += bins[binIndex(rows, r, c + 1)];
      tail[r * columns + c] = above;
      if (above > maximum[r * columns + c]) maximum[r * columns + c] = above;
    }
  }
  return tail;
}

/** Each cell's tuning errors at the chosen thresholds (upper index j, lower index k), with their upper bounds. */
function tuningErrorsAt(
  plan: CalibrationPlan,
  perCellRejects: ReadonlyArray<Float64Array | null>,
  perCellAccepts: ReadonlyArray<Float64Array | null>,
  j: number,
  k: number,
  confidence: number,
): CellError[] {
  const { upperCount, lowerCount } = plan.grid;
  const paths = plan.paths;
  const tuningErrors: CellError[] = [];
  plan.cells.forEach((cell, index) => {
    const cellRejects = perCellRejects[index];
    const cellAccepts = perCellAccepts[index];
    if (cellRejects !== null) {
      const count = cellRejects[k * upperCount + j];
      tuningErrors.push({
        cell: cell.key,
        role: cell.role,
        error: 'reject',
        count,
        paths,
        rate: count / paths,
        upperBound: clopperPearsonUpper(count, paths, confidence),
      });
    }
    if (cellAccepts !== null) {
      const count = cellAccepts[j * lowerCount + k];
      tuningErrors.push({
        cell: cell.key,
        role: cell.role,
        error: 'accept',
        count,
        paths,
        rate: count / paths,
        upperBound: clopperPearsonUpper(count, paths, confidence),
      });
    }
  });
  return tuningErrors;
}

/**
 * chooseThresholds(plan, tuning) picks the calibrated thresholds from the merged tuning
 * histograms (one ThresholdPathCounts per cell, in plan.cells order, each with plan.paths
 * paths): with R(u, l) the largest rejection count over compliant cells and A(u, l) the
 * largest acceptance count over violating cells, it starts from the lowest lower threshold,
 * takes the smallest upper threshold whose R passes the tuning criterion for alpha, then
 * the highest lower threshold whose A passes it for beta, and repeats until neither moves
 * (R falls as either threshold rises toward 0 from its side, A rises with both, so the
 * iteration is monotone and stops): the most decisive pair the criterion allows. The
 * criterion is rate + 2 x (Clopper-Pearson upper bound - rate) <= target, at the per-test
 * confidence 1 - (1 - confidence)/(tests x rounds) (testConfidence). O(cells x grid).
 * Throws InputError naming alpha or beta, and the smallest alpha and beta the setting can
 * meet with this grid and these simulations, when no threshold pair passes.
 */
export function chooseThresholds(plan: CalibrationPlan, tuning: readonly ThresholdPathCounts[]): ThresholdChoice {
  return choose(plan, tuning, null) as ThresholdChoice;
}

/**
 * chooseThresholdsInWindow(plan, tuning, window) is chooseThresholds on histograms that
 * are exact only inside `window` (PathExtremes with that window): the same choice, or
 * null when the choice cannot be proven the same from them (a scan of the grid reaches the
 * window's edge, or no pair passes: then the caller tunes on the whole grid). Every scan
 * of chooseThresholds is a search, from the decisive end, for the first threshold whose
 * count passes a limit: counts outside the window can only be too small, so a scan that
 * ends strictly inside the window (the thresholds it passed inside are exact, those
 * outside failed on counts no larger than the true ones) finds what the full histograms
 * give, and the iteration takes the same steps. O(cells x grid).
 */
export function chooseThresholdsInWindow(
  plan: CalibrationPlan,
  tuning: readonly ThresholdPathCounts[],
  window: TuningWindow,
): ThresholdChoice | null {
  return choose(plan, tuning, window);
}

function choose(
  plan: CalibrationPlan,
  tuning: readonly ThresholdPathCounts[],
  window: TuningWindow | null,
): ThresholdChoice | null {
  const { grid, cells, setting } = plan;
  const upperCount = grid.upperCount;
  const lowerCount = grid.lowerCount;
  const paths = plan.paths;
  tuning.forEach((counts, index) => {
    if (counts.paths !== paths)
      throw new Error(`chooseThresholds: cell ${cells[index].key} has ${counts.paths} paths, expected ${paths}`);
  });
  // rejects[k * U + j] and accepts[j * L + k], maximised over cells, plus per cell for the report.
  const rejects = new Float64Array(lowerCount * upperCount);
  const accepts = new Float64Array(upperCount * lowerCount);
  const perCellRejects = tuning.map((counts) =>
    counts.nullBins === null ? null : tailCounts(counts.nullBins, lowerCount, upperCount, rejects),
  );
  const perCellAccepts = tuning.map((counts) =>
    counts.alternativeBins === null ? null : tailCounts(counts.alternativeBins, upperCount, lowerCount, accepts),
  );
  const confidence = testConfidence(plan);
  const rejectLimit = tuningLimit(paths, setting.alpha, confidence);
  const acceptLimit = tuningLimit(paths, setting.beta, confidence);
  const firstUpper = (k: number): number => {
    for (let j = 0; j < upperCount; j++) if (rejects[k * upperCount + j] <= rejectLimit) return j;
    return -1;
  };
  const firstLower = (j: number): number => {
    for (let k = 0; k < lowerCount; k++) if (accepts[j * lowerCount + k] <= acceptLimit) return k;
    return -1;
  };
  // Inside the window a found index must lie strictly beyond its start (the failed one before it is then exact).
  let outside = false;
  const checkUpper = (index: number): number => {
    if (window !== null && index >= 0 && index <= window.upperStart) outside = true;
    return index;
  };
  const checkLower = (index: number): number => {
    if (window !== null && index >= 0 && index <= window.lowerStart) outside = true;
    return index;
  };
  let k = lowerCount - 1;
  let j = checkUpper(firstUpper(k));
  let nextK = j < 0 ? -1 : checkLower(firstLower(j));
  if (window !== null && (outside || j < 0 || nextK < 0)) return null;
  if (j < 0 || nextK < 0) {
    const smallestAlpha = tuningValue(rejects[(lowerCount - 1) * upperCount + upperCount - 1], paths, confidence);
    const smallestBeta = tuningValue(
      accepts[(j < 0 ? upperCount - 1 : j) * lowerCount + lowerCount - 1],
      paths,
      confidence,
    );
    const which = j < 0 ? 'alpha' : 'beta';
    throw inputError({
      where: `calibrateGlrThresholds: ${which}`,
      expected:
        `a level this setting can meet (budget ${setting.budget}, groups of ${setting.countA} and ${setting.countB}, ` +
        `${paths} simulated audits per pool, thresholds ` +
        `within ${lowerThreshold(grid, lowerCount - 1)} .. ${upperThreshold(grid, upperCount - 1)}): ` +
        `the smallest alpha it can meet is ${smallestAlpha.toPrecision(3)} and the smallest ` +
        `beta ${smallestBeta.toPrecision(3)}`,
      found: setting[which],
    });
  }
  for (;;) {
    k = nextK;
    const nextJ = checkUpper(firstUpper(k));
    if (nextJ === j) break;
    j = nextJ;
    nextK = checkLower(firstLower(j));
    if (nextK === k) break;
  }
  const tuningErrors = tuningErrorsAt(plan, perCellRejects, perCellAccepts, j, k, confidence);
  const significantAbove = (limit: number) => lowerBoundLimit(paths, limit);
  const significantBelow = (limit: number) => largestCountBelow(paths, limit, 0.975);
  const scanUpper = (limitCount: number): number => {
    for (let jj = 0; jj < upperCount; jj++)
      if (rejects[k * upperCount + jj] <= limitCount) return upperThreshold(grid, jj);
    return Number.POSITIVE_INFINITY;
  };
  const scanLower = (limitCount: number): number => {
    for (let kk = 0; kk < lowerCount; kk++)
      if (accepts[j * lowerCount + kk] <= limitCount) return lowerThreshold(grid, kk);
    return Number.NEGATIVE_INFINITY;
  };
  const upperInterval: [number, number] = [
    scanUpper(significantAbove(setting.alpha)),
    scanUpper(significantBelow(setting.alpha)),
  ];
  const lowerInterval: [number, number] = [
    scanLower(significantAbove(setting.beta)),
    scanLower(significantBelow(setting.beta)),
  ];
  if (window !== null) {
    for (const value of upperInterval) if (Number.isFinite(value)) checkUpper(Math.round(value / grid.step) - 1);
    for (const value of lowerInterval) if (Number.isFinite(value)) checkLower(Math.round(-value / grid.step) - 1);
    if (outside) return null;
  }
  return {
    upper: upperThreshold(grid, j),
    lower: lowerThreshold(grid, k),
    upperIndex: j,
    lowerIndex: k,
    testConfidence: confidence,
    tuning: tuningErrors,
    upperInterval,
    lowerInterval,
  };
}

/** How far inside the pilot's upper threshold the tuning window starts, in statistic units. */
export const PILOT_MARGIN = 1.5;

/**
 * How far inside the pilot's lower threshold the tuning window starts: less than on the
 * upper side, as the pilot's 100 audits place the beta crossing far more precisely than
 * the alpha one (a rate near 0.2, not 0.05), and every lower threshold recorded costs GLR
 * evaluations on each path's way down (about a third of the tuning at 1.5).
 */
export const PILOT_LOWER_MARGIN = 1;

/**
 * pilotWindow(plan, pilot) places the tuning window from a pilot (pilotChunks: a few
 * audits per cell on the whole grid, in plan.cells order): the iteration of
 * chooseThresholds with plain rates (worst cell's rejection rate <= alpha, acceptance
 * rate <= beta, no margin: the pilot's pair lies inside the tuned one, which adds a
 * Clopper-Pearson margin), then PILOT_MARGIN (upper) and PILOT_LOWER_MARGIN (lower) toward 0. FULL_WINDOW
 * when the pilot finds no pair. A window too narrow costs time, never a result
 * (chooseThresholdsInWindow refuses it). O(cells x grid).
 */
export function pilotWindow(plan: CalibrationPlan, pilot: readonly ThresholdPathCounts[]): TuningWindow {
  const { upperCount, lowerCount, step } = plan.grid;
  const rejects = new Float64Array(lowerCount * upperCount);
  const accepts = new Float64Array(upperCount * lowerCount);
  let paths = Number.POSITIVE_INFINITY;
  for (const counts of pilot) {
    paths = Math.min(paths, counts.paths);
    if (counts.nullBins !== null) tailCounts(counts.nullBins, lowerCount, upperCount, rejects);
    if (counts.alternativeBins !== null) tailCounts(counts.alternativeBins, upperCount, lowerCount, accepts);
  }
  const rejectLimit = Math.floor(plan.setting.alpha * paths);
  const acceptLimit = Math.floor(plan.setting.beta * paths);
  const firstUpper = (k: number): number => {
    for (let j = 0; j < upperCount; j++) if (rejects[k * upperCount + j] <= rejectLimit) return j;
    return -1;
  };
  const firstLower = (j: number): number => {
    for (let k = 0; k < lowerCount; k++) if (accepts[j * lowerCount + k] <= acceptLimit) return k;
    return -1;
  };
  let k = lowerCount - 1;
  let j = firstUpper(k);
  for (let round = 0; round < upperCount + lowerCount && j >= 0; round++) {
    const nextK = firstLower(j);
    if (nextK < 0 || nextK === k) break;
    k = nextK;
    const nextJ = firstUpper(k);
    if (nextJ < 0 || nextJ === j) break;
    j = nextJ;
  }
  if (j < 0) return FULL_WINDOW;
  const upperMargin = Math.round(PILOT_MARGIN / step);
  const lowerMargin = Math.round(PILOT_LOWER_MARGIN / step);
  return { upperStart: Math.max(0, j - upperMargin), lowerStart: Math.max(0, k - lowerMargin) };
}

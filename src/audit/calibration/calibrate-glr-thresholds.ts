import { clopperPearsonUpper } from '../../stats/clopper-pearson.js';
import type { SequentialThresholds } from '../../stats/thresholds.js';
import { mergeOutcomeCounts, type OutcomeCounts, runCertificationChunk, runTuningChunk } from './calibration-chunks.js';
import {
  type CalibrationChunk,
  type CalibrationOptions,
  type CalibrationPlan,
  type CalibrationSetting,
  certificationChunks,
  pilotChunks,
  planCalibration,
  priceChunks,
} from './calibration-plan.js';
import {
  type CellError,
  chooseThresholds,
  chooseThresholdsInWindow,
  pilotWindow,
  type ThresholdChoice,
} from './choose-thresholds.js';
import {
  emptyPathCounts,
  lowerThreshold,
  mergePathCounts,
  type ThresholdPathCounts,
  type TuningWindow,
  upperThreshold,
} from './threshold-paths.js';

/** The outcome of certifying thresholds on fresh simulations. */
export interface Certification {
  readonly upper: number;
  readonly lower: number;
  readonly round: number;
  /** Every cell's error on the fresh simulations, with simultaneous Clopper-Pearson bounds. */
  readonly errors: readonly CellError[];
  /** True when every rejection bound is <= alpha and every acceptance bound <= beta. */
  readonly passed: boolean;
}

/** What calibrateGlrThresholds found. */
export interface CalibrationResult {
  /** The calibrated thresholds (the last certified pair, or the last tried if none passed). */
  readonly upper: number;
  readonly lower: number;
  /** True when fresh simulations certified both error bounds. */
  readonly certified: boolean;
  readonly choice: ThresholdChoice;
  readonly certifications: readonly Certification[];
  /** The worst compliant cell (largest rejection bound) and worst violating cell of the last certification. */
  readonly worstReject: CellError | null;
  readonly worstAccept: CellError | null;
  readonly plan: CalibrationPlan;
  /** Mean queries per simulated audit over the last certification (all cells). */
  readonly meanQueries: number;
  /** The calibrated test's outcomes at gap 0 and at a clear violation (2 tolerance). */
  readonly price: readonly CalibrationPrice[];
}

/**
 * certifyOutcomes(plan, thresholds, outcomes, round) judges fresh simulations (one
 * OutcomeCounts per cell, plan.cells order): each compliant (or boundary) cell's rejection
 * rate and each violating (or boundary) cell's acceptance rate gets a Clopper-Pearson upper
 * bound at the per-test confidence (simultaneous over all cells and rounds at
 * plan.confidence); they pass when every rejection bound is <= alpha and every acceptance
 * bound <= beta. O(cells).
 */
export function certifyOutcomes(
  plan: CalibrationPlan,
  thresholds: { upper: number; lower: number },
  outcomes: readonly OutcomeCounts[],
  round: number,
  confidence: number,
): Certification {
  const errors: CellError[] = [];
  let passed = true;
  plan.cells.forEach((cell, index) => {
    const outcome = outcomes[index];
    for (const error of ['reject', 'accept'] as const) {
      if (error === 'reject' && cell.role === 'alternative') continue;
      if (error === 'accept' && cell.role === 'null') continue;
      const count = outcome[error];
      const upperBound = clopperPearsonUpper(count, outcome.paths, confidence);
      if (upperBound > (error === 'reject' ? plan.setting.alpha : plan.setting.beta)) passed = false;
      errors.push({
        cell: cell.key,
        role: cell.role,
        error,
        count,
        paths: outcome.paths,
        rate: count / outcome.paths,
        upperBound,
      });
    }
  });
  return { upper: thresholds.upper, lower: thresholds.lower, round, errors, passed };
}

function worst(errors: readonly CellError[], error: 'reject' | 'accept'): CellError | null {
  let found: CellError | null = null;
  for (const entry of errors)
    if (entry.error === error && (found === null || entry.upperBound > found.upperBound)) found = entry;
  return found;
}

/** Progress of a calibration, for a CLI progress bar: chunks done of the stage's total. */
export type CalibrationProgress = (stage: CalibrationStage, done: number, total: number) => void;

/** The stages of a calibration: tuning simulations, certification rounds, the price of the result. */
export type CalibrationStage = 'tune' | 'certify' | 'price';

/**
 * One batch of Monte Carlo work the calibration asks for: its chunks, and for the
 * certification and price stages the thresholds to audit with. Chunks are independent
 * and seeded by their coordinates: any executor (this thread, worker threads) may run
 * them in any order, as long as it hands the results back in the chunks' order.
 */
export interface CalibrationStep {
  readonly stage: CalibrationStage;
  readonly chunks: readonly CalibrationChunk[];
  readonly thresholds?: SequentialThresholds;
  /** Tuning: where the histograms must be exact (default the whole grid). */
  readonly window?: TuningWindow;
  /** A stage run in several steps: chunks of the stage done before this step, and the stage's chunks in all. */
  readonly progress?: { readonly before: number; readonly total: number };
}

/** stepProgress(step, done) is what a step's progress callback reports: [done so far in the stage, its total]. */
export function stepProgress(step: CalibrationStep, done: number): [number, number] {
  return step.progress === undefined
    ? [done, step.chunks.length]
    : [step.progress.before + done, Math.max(step.progress.total, step.progress.before + step.chunks.length)];
}

/** What a chunk gives back, one entry per cell of the chunk: tuning histograms, or audit outcomes. */
export type CalibrationChunkResult = readonly ThresholdPathCounts[] | readonly OutcomeCounts[];

/**
 * runCalibrationChunk(plan, step, chunk) runs one chunk of a step: runTuningChunk for
 * the tuning stage, runCertificationChunk at the step's thresholds otherwise. Pure in its
 * inputs. The one function executors call.
 */
export function runCalibrationChunk(
  plan: CalibrationPlan,
  step: Pick<CalibrationStep, 'stage' | 'thresholds' | 'window'>,
  chunk: CalibrationChunk,
): CalibrationChunkResult {
  return step.stage === 'tune'
    ? runTuningChunk(plan, chunk, step.window)
    : runCertificationChunk(plan, step.thresholds as SequentialThresholds, chunk);
}

/** The price of the calibrated test: its outcomes at gap 0 and at a clear violation (plan.priceCells). */
export interface CalibrationPrice {
  readonly cell: string;
  readonly gap: number;
  readonly outcome: OutcomeCounts;
}

function merged(
  cells: number,
  chunks: readonly CalibrationChunk[],
  results: readonly CalibrationChunkResult[],
): OutcomeCounts[] {
  const outcomes: OutcomeCounts[] = Array.from({ length: cells }, () => ({
    paths: 0,
    reject: 0,
    accept: 0,
    inconclusive: 0,
    queries: 0,
  }));
  for (const [index, chunk] of chunks.entries())
    for (const [offset, outcome] of (results[index] as readonly OutcomeCounts[]).entries())
      mergeOutcomeCounts(outcomes[chunk.cell + offset], outcome);
  return outcomes;
}

/** The tuning histograms of a step's chunks, merged per cell (plan.cells order). */
function mergedTuning(
  plan: CalibrationPlan,
  chunks: readonly CalibrationChunk[],
  results: readonly CalibrationChunkResult[],
): ThresholdPathCounts[] {
  const tuning = plan.cells.map((cell) =>
    emptyPathCounts(plan.grid, cell.role !== 'alternative', cell.role !== 'null'),
  );
  for (const [index, chunk] of chunks.entries())
    for (const [offset, counts] of (results[index] as readonly ThresholdPathCounts[]).entries())
      mergePathCounts(tuning[chunk.cell + offset], counts);
  return tuning;
}

/**
 * tuningSteps(plan) is the tuning stage: plan.chunks on the whole grid, then
 * chooseThresholds. For decision access it first runs a pilot (pilotChunks) to place a
 * window (pilotWindow), runs plan.chunks recording exactly only inside it (the GLR is then
 * evaluated at far fewer queries) and keeps their choice when chooseThresholdsInWindow
 * proves it equal to the whole grid's; otherwise it tunes on the whole grid. Either way
 * the choice is the one of plan.chunks on the whole grid.
 */
function* tuningSteps(
  plan: CalibrationPlan,
): Generator<CalibrationStep, ThresholdChoice, readonly CalibrationChunkResult[]> {
  let before = 0;
  if (plan.cells.every((cell) => cell.counts !== null)) {
    const pilot = pilotChunks(plan);
    const total = pilot.length + plan.chunks.length;
    const piloted = yield { stage: 'tune', chunks: pilot, progress: { before, total } };
    const window = pilotWindow(plan, mergedTuning(plan, pilot, piloted));
    before += pilot.length;
    if (window.upperStart > 0 || window.lowerStart > 0) {
      const tuned = yield { stage: 'tune', chunks: plan.chunks, window, progress: { before, total } };
      const choice = chooseThresholdsInWindow(plan, mergedTuning(plan, plan.chunks, tuned), window);
      if (choice !== null) return choice;
      before += plan.chunks.length;
    }
  }
  const progress = { before, total: before + plan.chunks.length };
  const tuned = yield { stage: 'tune', chunks: plan.chunks, progress };
  return chooseThresholds(plan, mergedTuning(plan, plan.chunks, tuned));
}

/**
 * calibrationSteps(plan) is the calibration as a sequence of Monte Carlo batches (a
 * generator: it yields a CalibrationStep, is resumed with that step's chunk results in
 * chunk order, and returns the CalibrationResult):
 * 1. tune: plan.paths paths per pool, each simulated once and summarised for every
 *    threshold pair of the grid (threshold-paths.ts), then chooseThresholds (tuningSteps:
 *    for decision access a pilot first narrows where the summaries must be exact);
 * 2. certify: fresh simulations of complete audits at the chosen thresholds;
 *    Clopper-Pearson bounds simultaneous over pools and rounds must be <= alpha and <=
 *    beta. If a bound fails, the failing side moves one grid step outward and a new round
 *    runs on new simulations, up to plan.rounds rounds;
 * 3. price: fresh audits at the final thresholds of a pool at gap 0 and one at gap
 *    2 tolerance (plan.priceCells), so users see what the guarantee costs in
 *    inconclusive audits.
 * calibrateGlrThresholds runs the steps in this thread, calibrateGlrThresholdsOnThreads
 * on worker threads; both give the same result for a plan. Throws InputError from
 * chooseThresholds when no threshold pair meets alpha and beta (a vacuous certificate is
 * refused where a user's audit asks for one: vacuousCalibration).
 */
export function* calibrationSteps(
  plan: CalibrationPlan,
): Generator<CalibrationStep, CalibrationResult, readonly CalibrationChunkResult[]> {
  const setting = plan.setting;
  const choice = yield* tuningSteps(plan);
  const certifications: Certification[] = [];
  let upperIndex = choice.upperIndex;
  let lowerIndex = choice.lowerIndex;
  let meanQueries = Number.NaN;
  for (let round = 0; round < plan.rounds; round++) {
    const thresholds = { upper: upperThreshold(plan.grid, upperIndex), lower: lowerThreshold(plan.grid, lowerIndex) };
    const chunks = certificationChunks(plan, round);
    const outcomes = merged(plan.cells.length, chunks, yield { stage: 'certify', chunks, thresholds });
    let queries = 0;
    let paths = 0;
    for (const outcome of outcomes) {
      queries += outcome.queries;
      paths += outcome.paths;
    }
    meanQueries = queries / paths;
    const certification = certifyOutcomes(plan, thresholds, outcomes, round, choice.testConfidence);
    certifications.push(certification);
    if (certification.passed) break;
    const rejectFailed = certification.errors.some((e) => e.error === 'reject' && e.upperBound > setting.alpha);
    const acceptFailed = certification.errors.some((e) => e.error === 'accept' && e.upperBound > setting.beta);
    if (rejectFailed && upperIndex + 1 < plan.grid.upperCount) upperIndex++;
    if (acceptFailed && lowerIndex + 1 < plan.grid.lowerCount) lowerIndex++;
  }
  const last = certifications[certifications.length - 1];
  const final = { upper: last.upper, lower: last.lower };
  const chunks = priceChunks(plan);
  const priced = merged(plan.priceCells.length, chunks, yield { stage: 'price', chunks, thresholds: final });
  return {
    upper: last.upper,
    lower: last.lower,
    certified: last.passed,
    choice,
    certifications,
    worstReject: worst(last.errors, 'reject'),
    worstAccept: worst(last.errors, 'accept'),
    plan,
    meanQueries,
    price: plan.priceCells.map((cell, index) => ({ cell: cell.key, gap: cell.gap, outcome: priced[index] })),
  };
}

/**
 * calibrateGlrThresholds(setting, options, progress) finds GLR thresholds (upper, lower)
 * for one audit setting such that, by Monte Carlo with a stated confidence,
 *   sup over compliant pools (|gap| <= tolerance) of P(reject) <= alpha and
 *   sup over violating pools (|gap| >= tolerance) of P(accept) <= beta,
 * for the setting's group sizes, budget, start rule and query order. The pools: decision
 * access simulates pools with group a at a grid of base rates and group b just inside and
 * just outside the tolerance above it (the composite null's boundary, where both suprema
 * sit; the cells report where); score and logit access simulate the pool itself
 * projected to gaps +-tolerance (nullProjection). The stages are calibrationSteps', run
 * in this thread (calibrateGlrThresholdsOnThreads spreads them over worker threads with
 * the same result: every chunk has its own seed, deriveSeed of the master seed, the pool
 * and the chunk). Running time O(pools x (paths + certificationPaths x rounds) x budget)
 * GLR updates at most.
 * Throws InputError for a bad setting or options (planCalibration) and when no threshold
 * pair meets alpha and beta, naming the smallest alpha and beta it can meet (chooseThresholds).
 */
export function calibrateGlrThresholds(
  setting: CalibrationSetting,
  options: CalibrationOptions,
  progress?: CalibrationProgress,
): CalibrationResult {
  return runCalibrationSteps(planCalibration(setting, options), progress);
}

/** runCalibrationSteps(plan, progress) runs calibrationSteps(plan) chunk by chunk in this thread. */
export function runCalibrationSteps(plan: CalibrationPlan, progress?: CalibrationProgress): CalibrationResult {
  const steps = calibrationSteps(plan);
  let next = steps.next([]);
  while (!next.done) {
    const step = next.value;
    const results = step.chunks.map((chunk, done) => {
      const result = runCalibrationChunk(plan, step, chunk);
      progress?.(step.stage, ...stepProgress(step, done + 1));
      return result;
    });
    next = steps.next(results);
  }
  return next.value;
}

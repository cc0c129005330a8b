import { clopperPearsonUpper } from '../stats/clopper-pearson.js';
import { type OutcomeCounts, mergeOutcomeCounts, runCertificationChunk, runTuningChunk } from './calibration-chunks.js';
import {
  type CalibrationOptions,
  type CalibrationPlan,
  type CalibrationSetting,
  certificationChunks,
  planCalibration,
} from './calibration-plan.js';
import { type CellError, chooseThresholds, type ThresholdChoice } from './choose-thresholds.js';
import { emptyPathCounts, lowerThreshold, mergePathCounts, type ThresholdPathCounts, upperThreshold } from './threshold-paths.js';

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
      errors.push({ cell: cell.key, role: cell.role, error, count, paths: outcome.paths, rate: count / outcome.paths, upperBound });
    }
  });
  return { upper: thresholds.upper, lower: thresholds.lower, round, errors, passed };
}

function worst(errors: readonly CellError[], error: 'reject' | 'accept'): CellError | null {
  let found: CellError | null = null;
  for (const entry of errors) if (entry.error === error && (found === null || entry.upperBound > found.upperBound)) found = entry;
  return found;
}

/** Progress of a calibration, for a CLI progress bar: chunks done of the stage's total. */
export type CalibrationProgress = (stage: 'tune' | 'certify', done: number, total: number) => void;

/**
 * calibrateGlrThresholds(setting, options, progress) finds GLR thresholds (upper, lower)
 * for one audit setting such that, by Monte Carlo with a stated confidence,
 *   sup over compliant pools (|gap| <= tolerance) of P(reject) <= alpha and
 *   sup over violating pools (|gap| >= tolerance) of P(accept) <= beta,
 * for the setting's group sizes, budget, start rule and query order:
 * 1. plan (planCalibration): decision access simulates pools with group a at a grid of
 *    base rates and group b just inside and just outside the tolerance above it (the
 *    composite null's boundary, where both suprema sit; the cells report where); score and
 *    logit access simulate the pool itself projected to gaps +-tolerance (nullProjection);
 * 2. tune: plan.paths paths per pool, each simulated once and summarised for every
 *    threshold pair of the grid (threshold-paths.ts), then chooseThresholds;
 * 3. certify: fresh simulations of complete audits at the chosen thresholds; Clopper-Pearson
 *    bounds simultaneous over pools and rounds must be <= alpha and <= beta. If a bound
 *    fails, the failing side moves one grid step outward and a new round runs on new
 *    simulations, up to plan.rounds rounds.
 * Every chunk has its own seed (deriveSeed of the master seed, the pool and the chunk), so
 * the result is the same for a seed however the chunks are spread over threads; this
 * driver runs them in order on the calling thread (phase 2 spreads runTuningChunk and
 * runCertificationChunk over worker threads). Running time O(pools x (paths +
 * certificationPaths x rounds) x budget) GLR updates at most.
 * Throws InputError for a bad setting or options (planCalibration) and when no threshold
 * pair meets alpha and beta, naming the smallest alpha and beta it can meet (chooseThresholds).
 */
export function calibrateGlrThresholds(
  setting: CalibrationSetting,
  options: CalibrationOptions,
  progress?: CalibrationProgress,
): CalibrationResult {
  const plan = planCalibration(setting, options);
  const tuning: ThresholdPathCounts[] = plan.cells.map((cell) =>
    emptyPathCounts(plan.grid, cell.role !== 'alternative', cell.role !== 'null'),
  );
  plan.chunks.forEach((chunk, done) => {
    mergePathCounts(tuning[chunk.cell], runTuningChunk(plan, chunk));
    progress?.('tune', done + 1, plan.chunks.length);
  });
  const choice = chooseThresholds(plan, tuning);
  const certifications: Certification[] = [];
  let upperIndex = choice.upperIndex;
  let lowerIndex = choice.lowerIndex;
  let meanQueries = Number.NaN;
  for (let round = 0; round < plan.rounds; round++) {
    const thresholds = { upper: upperThreshold(plan.grid, upperIndex), lower: lowerThreshold(plan.grid, lowerIndex) };
    const outcomes: OutcomeCounts[] = plan.cells.map(() => ({ paths: 0, reject: 0, accept: 0, inconclusive: 0, queries: 0 }));
    const chunks = certificationChunks(plan, round);
    chunks.forEach((chunk, done) => {
      mergeOutcomeCounts(outcomes[chunk.cell], runCertificationChunk(plan, thresholds, chunk));
      progress?.('certify', done + 1, chunks.length);
    });
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
  };
}

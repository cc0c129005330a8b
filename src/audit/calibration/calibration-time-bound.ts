import { runTuningChunk } from './calibration-chunks.js';
import { type CalibrationPlan, PILOT_PATHS } from './calibration-plan.js';

/** Simulated audits the probe of calibrationTimeBound runs. */
const PROBE_PATHS = 20;

/**
 * calibrationTimeBound(plan, threads, clock) estimates, before a calibration starts, how
 * long it takes at most: it times PROBE_PATHS tuning audits of a middle cell on the whole
 * grid, after a first run of the same probe that compiles it (the most expensive kind of simulated audit: every other
 * kind evaluates the GLR
 * at fewer queries) in this thread and multiplies by the audits of the plan (pilot,
 * tuning, one certification round, price) over the threads. A rough bound, for the
 * notice a user sees before waiting: a loaded machine or more certification rounds make
 * it longer. Running time: the probe, a few milliseconds to a few hundred.
 * @param plan the calibration (planCalibration)
 * @param threads the worker threads it will run on
 * @param clock seconds of wall time (default performance.now() / 1000)
 * @returns the estimated seconds of wall time
 * @example
 * const seconds = calibrationTimeBound(planCalibration(setting, { seed: 's' }), 2);
 */
export function calibrationTimeBound(
  plan: CalibrationPlan,
  threads: number,
  clock: () => number = () => performance.now() / 1000,
): number {
  const cell = Math.floor(plan.cells.length / 2);
  const probe = { cell, index: 0, paths: Math.min(PROBE_PATHS, plan.paths), seed: `${plan.seed} probe` };
  // Twice, timing the second: the first run compiles the simulation (a cold process is many times slower).
  runTuningChunk(plan, probe);
  const started = clock();
  runTuningChunk(plan, probe);
  const perAudit = (clock() - started) / probe.paths; // one cell's audit (a coupled chunk runs every cell's)
  const pilot = plan.cells.every((c) => c.counts !== null) ? Math.min(PILOT_PATHS, plan.paths) : 0;
  const audits =
    plan.cells.length * (pilot + plan.paths + plan.certificationPaths) +
    plan.priceCells.length * plan.certificationPaths;
  return (perAudit * audits) / Math.max(1, threads);
}

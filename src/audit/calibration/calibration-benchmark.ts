import type { CalibrationResult } from './calibrate-glr-thresholds.js';
import { calibrateGlrThresholdsOnThreads } from './calibrate-on-threads.js';
import type { CalibrationOptions, CalibrationSetting } from './calibration-plan.js';

/** What benchmarkCalibration measured. */
export interface CalibrationBenchmark {
  readonly setting: CalibrationSetting;
  readonly threads: number;
  /** Simulated audits run: tuning paths, certification audits of every round, price audits. */
  readonly audits: number;
  readonly wallSeconds: number;
  /** CPU of the whole process (every thread). */
  readonly cpuSeconds: number;
  readonly auditsPerSecond: number;
  readonly auditsPerCpuSecond: number;
  readonly upper: number;
  readonly lower: number;
  readonly certified: boolean;
}

/** The simulated audits of a calibration: tuning paths, every certification round's audits, and the price audits. */
export function calibrationAudits(result: CalibrationResult): number {
  const { plan } = result;
  return (
    plan.cells.length * plan.paths +
    result.certifications.length * plan.cells.length * plan.certificationPaths +
    plan.priceCells.length * plan.certificationPaths
  );
}

/**
 * benchmarkCalibration(setting, options, threads, clocks) times one complete calibration
 * (calibrateGlrThresholdsOnThreads, nothing cached) on `threads` worker threads: wall
 * and process CPU seconds, and simulated audits per second of each. The default of
 * `fairaudit bench calibrate` is paper A's Adult SP decision-access setting. Running
 * time: one calibration.
 */
export async function benchmarkCalibration(
  setting: CalibrationSetting,
  options: CalibrationOptions,
  threads: number,
  clocks: { cpuSeconds: () => number; wallSeconds: () => number },
): Promise<CalibrationBenchmark> {
  const wallStarted = clocks.wallSeconds();
  const cpuStarted = clocks.cpuSeconds();
  const result = await calibrateGlrThresholdsOnThreads(setting, options, { threads });
  const wallSeconds = clocks.wallSeconds() - wallStarted;
  const cpuSeconds = clocks.cpuSeconds() - cpuStarted;
  const audits = calibrationAudits(result);
  return {
    setting,
    threads,
    audits,
    wallSeconds,
    cpuSeconds,
    auditsPerSecond: audits / wallSeconds,
    auditsPerCpuSecond: audits / cpuSeconds,
    upper: result.upper,
    lower: result.lower,
    certified: result.certified,
  };
}

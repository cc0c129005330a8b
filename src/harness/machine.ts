import { cpus, loadavg } from 'node:os';

/** The machine a run or a benchmark ran on, as provenance records it. */
export interface Machine {
  /** The CPU model string the operating system reports (the first core's). */
  cpuModel: string;
  /** Logical cores the operating system reports. */
  cores: number;
}

/** The 1-, 5- and 15-minute load averages (all zero where the platform has none). */
export type LoadAverage = [number, number, number];

/**
 * machine() reads the CPU model and core count from node:os. O(cores).
 *
 * @returns the machine's CPU model and logical core count
 * @example machine() // { cpuModel: 'AMD EPYC 7B13', cores: 2 }
 */
export function machine(): Machine {
  const list = cpus();
  return { cpuModel: list[0]?.model.trim() ?? 'unknown', cores: list.length };
}

/**
 * loadAverage() reads the load averages, rounded to hundredths. O(1).
 *
 * @returns the 1-, 5- and 15-minute load averages
 * @example loadAverage() // [1.52, 1.31, 1.2]
 */
export function loadAverage(): LoadAverage {
  const [one, five, fifteen] = loadavg().map((value) => Math.round(value * 100) / 100);
  return [one ?? 0, five ?? 0, fifteen ?? 0];
}

/**
 * processCpuSeconds() is the CPU time (user + system) this process has used so far,
 * worker threads included. O(1).
 *
 * @returns CPU seconds since the process started
 * @example const before = processCpuSeconds(); work(); processCpuSeconds() - before
 */
export function processCpuSeconds(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
}

/** The fields a measurement script's record opens with: what ran, when, from which commit, where, under what load. */
export interface MeasurementEnvironment {
  readonly command: string;
  readonly date: string;
  readonly commit: string | null;
  readonly node: string;
  readonly machine: Machine;
  readonly loadAverageBefore: LoadAverage;
  readonly loadAverageAfter: LoadAverage;
}

/**
 * measurementEnvironment(command, commit, loadAverageBefore) is the opening of a measurement
 * record, taken when the measurement ends: the command that reprints it, the date, the commit
 * it ran from (read before it started), Node's version, the machine and the load averages
 * before and now. O(cores).
 * @param command the command line that prints the record again
 * @param commit gitCommit() read before the measurement
 * @param loadAverageBefore loadAverage() read before the measurement
 * @returns the record's opening fields
 * @example ({ ...measurementEnvironment('node scripts/x.mjs', gitCommit(), before), figure: 1 })
 */
export function measurementEnvironment(
  command: string,
  commit: string | null,
  loadAverageBefore: LoadAverage,
): MeasurementEnvironment {
  return {
    command,
    date: new Date().toISOString(),
    commit,
    node: process.version,
    machine: machine(),
    loadAverageBefore,
    loadAverageAfter: loadAverage(),
  };
}

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

import type { Override } from '../src/harness/config.js';
import type { CellStatus } from '../src/report/reproduction-status.js';

/** Options every reproduction accepts (the flags of `fairaudit reproduce`). */
export interface ReproductionOptions {
  /** Output folder (default results/<name>). */
  outDirectory?: string;
  overrides?: readonly Override[];
  threads?: number;
  /** Use embedded calibrated/synthetic data even when real data exists. */
  calibrated?: boolean;
  dataDirectory?: string;
  /** Retrain models even when they are cached. */
  refreshModels?: boolean;
  png?: boolean;
  /** Put measured times in the tables (paper-b-pir; by default they stay in run.json's provenance). */
  timings?: boolean;
  /**
   * Training variability (--model-seeds K, --split-seeds K): retrain every model under K
   * model seeds and K split seeds (each axis with the single run's pair as its seed 0)
   * and set each trained cell against its seeds. Default 1/1: the single run.
   */
  seeds?: { readonly modelSeeds: number; readonly splitSeeds: number };
  onProgress?: (stage: string, done?: number, total?: number) => void;
}

/** What a reproduction did, for the command to print. */
export interface ReproductionResult {
  name: string;
  outDirectory: string;
  /** Lines for the terminal: mode, runs, comparison verdict, where to look. */
  lines: string[];
  /** Every published cell it covers, with its status and why (for results/index.html and the closing block). */
  cells: CellStatus[];
  /** Its reports (absolute paths), main report first, for the index. */
  reports: Array<{ title: string; path: string }>;
  /** Published tables it rebuilds with no printed cell to compare with, and why (none when absent). */
  uncompared?: Array<{ table: string; why: string }>;
}

/** A reproduction `fairaudit reproduce NAME` knows. */
export interface Reproduction {
  name: string;
  title: string;
  /**
   * The registry names of the datasets it reads (src/data/registry.ts); `fairaudit
   * reproduce` fetches the missing ones before running it. None when it reads no data.
   */
  datasets?: readonly string[];
  run(options: ReproductionOptions): Promise<ReproductionResult>;
}

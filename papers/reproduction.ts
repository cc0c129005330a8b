import type { Override } from '../src/harness/config.js';

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
  onProgress?: (stage: string, done?: number, total?: number) => void;
}

/** What a reproduction did, for the command to print. */
export interface ReproductionResult {
  name: string;
  outDirectory: string;
  /** Lines for the terminal: mode, runs, comparison verdict, where to look. */
  lines: string[];
}

/** A reproduction `fairaudit reproduce NAME` knows. */
export interface Reproduction {
  name: string;
  title: string;
  run(options: ReproductionOptions): Promise<ReproductionResult>;
}

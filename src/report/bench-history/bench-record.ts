import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { type LoadAverage, loadAverage, machine } from '../../harness/machine.js';
import { gitCommit } from '../../harness/run-record.js';
import { InputError } from '../../util/errors.js';
import { makeFolder } from '../../util/make-folder.js';
import { packageRoot } from '../../util/paths.js';

/** Where bench records go unless --record names another store. */
export const DEFAULT_BENCH_STORE = 'docs/benchmarks/history.jsonl';

/** One figure of one bench command, with the environment it was measured in: a line of the store. */
export interface BenchRecord {
  format: 'fairaudit-bench/1';
  /** The bench command ("glr") and the figure's path in its JSON ("bernoulli.updatesPerSecond"). */
  bench: string;
  figure: string;
  value: number;
  /** Timed passes behind the figure (the command's --runs or --repetitions), or null. */
  repeats: number | null;
  commit: string | null;
  dirty: boolean | null;
  nodeVersion: string;
  cpuModel: string;
  cores: number;
  loadBefore: LoadAverage;
  loadAfter: LoadAverage;
  date: string;
}

/** Whether the package's git working tree has uncommitted changes (null outside git). */
function gitDirty(): boolean | null {
  try {
    const status = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], {
      cwd: packageRoot(),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return status.trim().length > 0;
  } catch {
    return null;
  }
}

/** The numeric leaves of a bench's JSON, by dotted path ("bernoulli.updatesPerSecond"). O(size). */
export function numericFigures(
  value: unknown,
  prefix = '',
  into: Array<[string, number]> = [],
): Array<[string, number]> {
  if (typeof value === 'number' && Number.isFinite(value)) into.push([prefix, value]);
  else if (typeof value === 'object' && value !== null && !Array.isArray(value))
    for (const [key, inner] of Object.entries(value)) numericFigures(inner, prefix ? `${prefix}.${key}` : key, into);
  return into;
}

/**
 * benchRecords(bench, figures, repeats, loadBefore) turns one bench run's JSON into
 * records, one per numeric figure, each with the commit, dirty flag, Node version, CPU
 * model, cores, load average before and after and the date. O(figures).
 */
export function benchRecords(
  bench: string,
  figures: unknown,
  repeats: number | null,
  loadBefore: LoadAverage,
): BenchRecord[] {
  const environment = {
    repeats,
    commit: gitCommit(),
    dirty: gitDirty(),
    nodeVersion: process.version,
    ...machine(),
    loadBefore,
    loadAfter: loadAverage(),
    date: new Date().toISOString(),
  };
  return numericFigures(figures).map(([figure, value]) => ({
    format: 'fairaudit-bench/1' as const,
    bench,
    figure,
    value,
    ...environment,
  }));
}

/** appendBenchRecords(store, records) appends records to the store, one JSON line each (the folder made if needed). */
export function appendBenchRecords(store: string, records: readonly BenchRecord[]): void {
  makeFolder(dirname(store));
  appendFileSync(store, records.map((record) => `${JSON.stringify(record)}\n`).join(''));
}

/**
 * readBenchRecords(store) reads a store's records; a line that is not a bench record is
 * an InputError naming the file and line. O(size).
 */
export function readBenchRecords(store: string): BenchRecord[] {
  if (!existsSync(store)) throw new InputError(`${store}: expected a bench record store (JSON lines), found ENOENT`);
  const lines = readFileSync(store, 'utf8').split('\n');
  const records: BenchRecord[] = [];
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    let record: Partial<BenchRecord>;
    try {
      record = JSON.parse(line);
    } catch {
      record = {};
    }
    if (record.format !== 'fairaudit-bench/1' || typeof record.value !== 'number' || typeof record.figure !== 'string')
      throw new InputError(
        `${store}: line ${index + 1}: expected a fairaudit-bench/1 record, found ${line.slice(0, 80)}`,
      );
    records.push(record as BenchRecord);
  });
  return records;
}

import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import { describeFound, InputError } from '../util/errors.js';
import { parseJsonUntrusted } from '../util/parse-untrusted.js';
import { packageRoot } from '../util/paths.js';
import { MAX_JSON_FILE_BYTES, readFileCapped } from '../util/read-capped.js';
import { configFromObject, EAGER_CELL_LIMIT, type ExperimentConfig } from './config.js';
import type { KindRunner } from './kind-runner.js';
import { findKindRunner } from './kind-runners.js';
import type { LoadAverage, Machine } from './machine.js';
import { buildPlan, type GridColumn, PLAN_FINGERPRINT_FORMAT, type Plan, type PlanCell, type Shard } from './plan.js';

/** run.json's format: 2 records the checksums of what the run wrote (`artifacts`); format 1 (before December 2026) did
 * not. */
export const RUN_RECORD_FORMAT = 'fairaudit-run/2';

/**
 * The run.json of a measurement rather than a Monte Carlo run (paper-b-pir's timings): the files it wrote, and in
 * its provenance the machine, its load and every measured time, so the tables beside it stay equal between runs.
 * `fairaudit compare` of two trees passes over these folders (they hold no results.arrow).
 */
export const MEASUREMENT_RECORD_FORMAT = 'fairaudit-measurement/1';

/** A measurement's run.json (MEASUREMENT_RECORD_FORMAT). */
export interface MeasurementRecord {
  format: typeof MEASUREMENT_RECORD_FORMAT;
  experiment: string;
  /** The files written beside it, relative to the folder. */
  files: string[];
  provenance: Pick<
    Provenance,
    | 'fairauditVersion'
    | 'nodeVersion'
    | 'gitCommit'
    | 'wallSeconds'
    | 'cpuSeconds'
    | 'machine'
    | 'loadAverage'
    | 'startedAt'
    | 'finishedAt'
  > & {
    /** The measured rows (times in milliseconds), by the table they belong to. */
    timings: Record<string, unknown[]>;
  };
}

/** isMeasurementRecord(path): whether the run.json at path is a measurement's (MEASUREMENT_RECORD_FORMAT). */
export function isMeasurementRecord(path: string): boolean {
  try {
    const record = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    return isObject(record) && record.format === MEASUREMENT_RECORD_FORMAT;
  } catch {
    return false;
  }
}

/** A file a run wrote, as run.json records it: its SHA-256, size and (for tables) rows. */
export interface Artifact {
  /** The file's name inside the results folder (results.arrow). */
  file: string;
  sha256: string;
  bytes: number;
  rows: number;
  /** Arrow record batches (results.arrow: one per 65,536 rows). */
  batches: number;
}

/** Where a run came from; everything that may differ between equal runs lives here, not in results.arrow. */
export interface Provenance {
  fairauditVersion: string;
  nodeVersion: string;
  gitCommit: string | null;
  masterSeed: string;
  threads: number | null;
  shard: Shard | null;
  wallSeconds: number;
  /** CPU seconds (user + system) of the process over the run, worker threads included. */
  cpuSeconds: number;
  /** The CPU model and logical cores of the machine. */
  machine: Machine;
  /** The 1-, 5- and 15-minute load averages when the run started and when it finished. */
  loadAverage: { started: LoadAverage; finished: LoadAverage };
  startedAt: string;
  finishedAt: string;
  /** Chunks taken from checkpoints of an interrupted run (--resume). */
  resumedChunks: number;
  /** Chunks computed by this process. */
  ranChunks: number;
  /** Facts that may differ between runs with equal results (a model cached or trained), from the caller. */
  notes?: Record<string, string>;
  /** For a merge: the shard folders merged. */
  mergedFrom?: string[];
}

/** run.json: the resolved config, the plan, the columns, the files written and the provenance of a run
 * (docs/contracts.md). */
export interface RunRecord {
  format: typeof RUN_RECORD_FORMAT;
  experiment: string;
  kind: string;
  config: {
    file: string;
    description: string | null;
    seed: string;
    replicates: number;
    chunkSize: number;
    settings: Record<string, unknown>;
    grid: Record<string, unknown[]>;
  };
  plan: {
    fingerprint: string;
    /** How the fingerprint is computed (fairaudit-plan/2: O(grid axes), see planFingerprint). */
    fingerprintFormat: typeof PLAN_FINGERPRINT_FORMAT;
    tasks: number;
    chunks: number;
    seed: string;
    replicates: number;
    chunkSize: number;
    gridColumns: GridColumn[];
    cellCount: number;
    /** Every cell with its full settings, for plans of at most EAGER_CELL_LIMIT cells (absent for larger ones). */
    cells?: (PlanCell & { replicates: number })[];
  };
  shard: Shard | null;
  rows: number;
  columns: RecordedColumn[];
  /** The files the run wrote, with their SHA-256 (results.arrow), checked by merge, report and compare. */
  artifacts: Artifact[];
  provenance: Provenance;
}

/** A column of results.arrow as run.json records it (values: the enum of a utf8 outcome column, when the kind declares
 * one). */
export interface RecordedColumn {
  name: string;
  type: string;
  description: string;
  values?: readonly string[];
}

/**
 * buildRunRecord(...) gathers run.json's content: the config as given, the plan (its
 * cells listed when there are at most EAGER_CELL_LIMIT), the columns, the artifacts
 * written and the provenance. O(listed cells).
 */
export function buildRunRecord(
  config:
    | Pick<ExperimentConfig, 'file' | 'description' | 'seed' | 'replicates' | 'chunkSize' | 'settings' | 'grid'>
    | RunRecord['config'],
  plan: Plan,
  kind: Pick<KindRunner, 'outcomeColumns'>,
  shard: Shard | null,
  rows: number,
  artifacts: Artifact[],
  provenance: Provenance,
): RunRecord {
  const grid = Array.isArray(config.grid)
    ? Object.fromEntries(config.grid.map((axis) => [axis.key, axis.values]))
    : (config.grid as Record<string, unknown[]>);
  const settingDescriptions = Object.fromEntries(
    plan.gridColumns.map((c) => [
      c.column,
      `the setting ${c.key} (${c.recorded ? 'as the cell sets it' : 'varied by the grid'})`,
    ]),
  );
  const fixed: Record<string, string> = {
    experiment: 'experiment name',
    kind: 'experiment kind',
    cell: 'canonical cell key (canonical JSON of the grid coordinates)',
    replicate: 'replicate index within the cell',
    seed: 'the replicate seed: deriveSeed(master seed, cell, replicate)',
  };
  return {
    format: RUN_RECORD_FORMAT,
    experiment: plan.experiment,
    kind: plan.kind,
    config: {
      file: recordedConfigFile(config.file),
      description: config.description ?? null,
      seed: config.seed,
      replicates: config.replicates,
      chunkSize: config.chunkSize,
      settings: config.settings,
      grid,
    },
    plan: {
      fingerprint: plan.fingerprint,
      fingerprintFormat: PLAN_FINGERPRINT_FORMAT,
      tasks: plan.tasks,
      chunks: plan.chunkCount,
      seed: plan.seed,
      replicates: plan.replicates,
      chunkSize: plan.chunkSize,
      gridColumns: plan.gridColumns,
      cellCount: plan.cellCount,
      ...(plan.cellCount <= EAGER_CELL_LIMIT
        ? { cells: plan.cells.map((cell) => ({ ...cell, replicates: plan.replicates })) }
        : {}),
    },
    shard,
    rows,
    columns: [
      ...['experiment', 'kind', 'cell'].map((name) => ({ name, type: 'utf8', description: fixed[name] })),
      ...plan.gridColumns.map((c) => ({ name: c.column, type: c.type, description: settingDescriptions[c.column] })),
      { name: 'replicate', type: 'int32', description: fixed.replicate },
      { name: 'seed', type: 'utf8', description: fixed.seed },
      ...kind.outcomeColumns.map((c) => ({
        name: c.name,
        type: c.type,
        description: c.description,
        ...(c.values ? { values: c.values } : {}),
      })),
    ],
    artifacts,
    provenance,
  };
}

/**
 * planFromRecord(record, where) rebuilds the Plan a run.json describes from its config
 * (configFromObject: the kind must be registered) and checks that it is the plan the
 * run recorded (its fingerprint): a config that now gives another plan (another
 * fairaudit version's defaults, an edited run.json) is an InputError naming `where`.
 * O(grid axes).
 */
export function planFromRecord(record: RunRecord, where: string): Plan {
  const { config } = record;
  const raw: Record<string, unknown> = {
    experiment: record.experiment,
    kind: record.kind,
    ...(config.description === null ? {} : { description: config.description }),
    seed: config.seed,
    replicates: config.replicates,
    chunkSize: config.chunkSize,
    settings: config.settings,
    grid: config.grid,
  };
  const rebuilt = configFromObject(raw, `${where}: config`);
  const plan = buildPlan(rebuilt, kindOfRecord(record, where));
  if (plan.fingerprint !== record.plan.fingerprint) {
    throw new InputError(
      `${where}: expected a config that gives the plan it records ` +
        `(fingerprint ${describeFound(String(record.plan.fingerprint).slice(0, 12))}), found one that gives ` +
        `plan ${plan.fingerprint.slice(0, 12)} (run.json edited, or written by another fairaudit version: run the ` +
        `experiment again)`,
    );
  }
  return plan;
}

/** The registered kind runner of a run record; InputError naming `where` when the kind is unknown. */
function kindOfRecord(record: RunRecord, where: string): KindRunner {
  const kind = findKindRunner(record.kind);
  if (!kind) throw new InputError(`${where}: expected a known experiment kind, found ${describeFound(record.kind)}`);
  return kind;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * readRunRecord(folder) reads folder/run.json (at most 64 MiB, parsed without
 * prototypes) and checks its shape: format 2 with its artifacts, plan, columns and
 * config. A run.json of format 1 (written before checksums existed) is refused with a
 * message to run again: its results cannot be verified. Throws InputError naming the
 * file. O(size of run.json).
 */
export function readRunRecord(folder: string): RunRecord {
  const path = join(folder, 'run.json');
  if (!existsSync(path)) throw new InputError(`${path}: expected the run.json of a fairaudit run, found ENOENT`);
  const record = parseJsonUntrusted(
    readFileCapped(path, MAX_JSON_FILE_BYTES, 'the run.json of a fairaudit run').toString('utf8'),
    path,
  );
  if (!isObject(record))
    throw new InputError(`${path}: expected the run.json of a fairaudit run, found ${describeFound(record)}`);
  if (record.format === 'fairaudit-run/1') {
    throw new InputError(
      `${path}: expected a run.json that records the checksums of its results (format ${RUN_RECORD_FORMAT}), ` +
        `found format fairaudit-run/1, written before fairaudit checked its results; run the experiment again to ` +
        `trust ` +
        `these results`,
    );
  }
  if (record.format !== RUN_RECORD_FORMAT)
    throw new InputError(`${path}: expected format "${RUN_RECORD_FORMAT}", found ${describeFound(record.format)}`);
  const problem = recordProblem(record);
  if (problem !== null) throw new InputError(`${path}: ${problem}`);
  return record as unknown as RunRecord;
}

/** What is wrong with the shape of a format-2 run.json, or null. */
function recordProblem(record: Record<string, unknown>): string | null {
  const plan = record.plan;
  const config = record.config;
  if (typeof record.experiment !== 'string' || typeof record.kind !== 'string')
    return 'expected the keys experiment and kind, found them missing';
  if (!isObject(config) || !isObject(config.settings) || !isObject(config.grid))
    return 'config: expected the settings and grid of the run, found them missing';
  if (
    !isObject(plan) ||
    typeof plan.fingerprint !== 'string' ||
    !Number.isSafeInteger(plan.replicates) ||
    !Number.isSafeInteger(plan.tasks)
  ) {
    return 'plan: expected the plan fingerprint, replicates and tasks, found them missing';
  }
  if (!Number.isSafeInteger(record.rows)) return `rows: expected a number of rows, found ${describeFound(record.rows)}`;
  if (
    !Array.isArray(record.columns) ||
    !record.columns.every((c) => isObject(c) && typeof c.name === 'string' && typeof c.type === 'string')
  ) {
    return 'columns: expected the columns of results.arrow, found none';
  }
  const artifacts = record.artifacts;
  const results = Array.isArray(artifacts)
    ? artifacts.find((a) => isObject(a) && a.file === 'results.arrow')
    : undefined;
  if (
    !isObject(results) ||
    typeof results.sha256 !== 'string' ||
    !Number.isSafeInteger(results.rows) ||
    !Number.isSafeInteger(results.bytes)
  ) {
    return 'artifacts: expected the SHA-256, size and rows of results.arrow, found none';
  }
  if (results.rows !== record.rows)
    return (
      `artifacts: expected results.arrow's rows to be the run's ${record.rows}, ` +
      `found ${describeFound(results.rows)}`
    );
  if (
    record.shard !== null &&
    !(isObject(record.shard) && Number.isSafeInteger(record.shard.index) && Number.isSafeInteger(record.shard.count))
  ) {
    return `shard: expected null or {index, count}, found ${describeFound(record.shard)}`;
  }
  return null;
}

/** The artifact entry of results.arrow in a checked run record. */
export function resultsArtifact(record: RunRecord): Artifact {
  return record.artifacts.find((artifact) => artifact.file === 'results.arrow') as Artifact;
}

/**
 * The config file as run.json records it: relative to the package root when it is one of
 * fairaudit's own (papers/paper-a/configs/paper-a.yaml), so two checkouts record the
 * same name; otherwise as given.
 */
function recordedConfigFile(file: string): string {
  if (!isAbsolute(file)) return file;
  const inside = relative(packageRoot(), file);
  return inside.startsWith('..') || isAbsolute(inside) ? file : inside;
}

/** The version in package.json. */
export function fairauditVersion(): string {
  return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}

/** The git commit of a checkout (default the package's own working tree), or null outside a git checkout. */
export function gitCommit(checkout: string = packageRoot()): string | null {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], {
      cwd: checkout,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return null;
  }
}

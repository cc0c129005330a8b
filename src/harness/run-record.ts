import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../util/errors.js';
import { packageRoot } from '../util/paths.js';
import type { ExperimentConfig } from './config.js';
import type { KindRunner } from './kind-runner.js';
import { type GridColumn, type Plan, type PlanCell, planChunks, type Shard } from './plan.js';

/** Where a run came from; everything that may differ between equal runs lives here, not in results.arrow. */
export interface Provenance {
  fairauditVersion: string;
  nodeVersion: string;
  gitCommit: string | null;
  masterSeed: string;
  threads: number | null;
  shard: Shard | null;
  wallSeconds: number;
  startedAt: string;
  finishedAt: string;
  /** Chunks taken from checkpoints of an interrupted run (--resume). */
  resumedChunks: number;
  /** Chunks computed by this process. */
  ranChunks: number;
  /** For a merge: the shard folders merged. */
  mergedFrom?: string[];
}

/** run.json: the resolved config, the plan, the columns, and the provenance of a run (docs/contracts.md). */
export interface RunRecord {
  format: 'fairaudit-run/1';
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
    tasks: number;
    chunks: number;
    seed: string;
    replicates: number;
    chunkSize: number;
    gridColumns: GridColumn[];
    cells: (PlanCell & { replicates: number })[];
  };
  shard: Shard | null;
  rows: number;
  columns: { name: string; type: string; description: string }[];
  provenance: Provenance;
}

/** buildRunRecord(...) gathers run.json's content. */
export function buildRunRecord(
  config: Pick<ExperimentConfig, 'file' | 'description' | 'seed' | 'replicates' | 'chunkSize' | 'settings' | 'grid'> | RunRecord['config'],
  plan: Plan,
  kind: KindRunner,
  shard: Shard | null,
  rows: number,
  provenance: Provenance,
): RunRecord {
  const grid = Array.isArray(config.grid)
    ? Object.fromEntries(config.grid.map((axis) => [axis.key, axis.values]))
    : (config.grid as Record<string, unknown[]>);
  const settingDescriptions = Object.fromEntries(
    plan.gridColumns.map((c) => [c.column, `the setting ${c.key} (${c.recorded ? 'as the cell sets it' : 'varied by the grid'})`]),
  );
  const fixed: Record<string, string> = {
    experiment: 'experiment name',
    kind: 'experiment kind',
    cell: 'canonical cell key (canonical JSON of the grid coordinates)',
    replicate: 'replicate index within the cell',
    seed: 'the replicate seed: deriveSeed(master seed, cell, replicate)',
  };
  return {
    format: 'fairaudit-run/1',
    experiment: plan.experiment,
    kind: plan.kind,
    config: {
      file: config.file,
      description: config.description ?? null,
      seed: config.seed,
      replicates: config.replicates,
      chunkSize: config.chunkSize,
      settings: config.settings,
      grid,
    },
    plan: {
      fingerprint: plan.fingerprint,
      tasks: plan.tasks,
      chunks: plan.chunks.length,
      seed: plan.seed,
      replicates: plan.replicates,
      chunkSize: plan.chunkSize,
      gridColumns: plan.gridColumns,
      cells: plan.cells.map((cell) => ({ ...cell, replicates: plan.replicates })),
    },
    shard,
    rows,
    columns: [
      ...['experiment', 'kind', 'cell'].map((name) => ({ name, type: 'utf8', description: fixed[name] })),
      ...plan.gridColumns.map((c) => ({ name: c.column, type: c.type, description: settingDescriptions[c.column] })),
      { name: 'replicate', type: 'int32', description: fixed.replicate },
      { name: 'seed', type: 'utf8', description: fixed.seed },
      ...kind.outcomeColumns.map((c) => ({ name: c.name, type: c.type, description: c.description })),
    ],
    provenance,
  };
}

/** planFromRecord(record) rebuilds the Plan a run.json describes (for merge). */
export function planFromRecord(record: RunRecord): Plan {
  return {
    experiment: record.experiment,
    kind: record.kind,
    seed: record.plan.seed,
    replicates: record.plan.replicates,
    chunkSize: record.plan.chunkSize,
    gridColumns: record.plan.gridColumns,
    cells: record.plan.cells.map(({ replicates: _replicates, ...cell }) => cell),
    chunks: planChunks(record.plan.cells.length, record.plan.replicates, record.plan.chunkSize),
    tasks: record.plan.tasks,
    fingerprint: record.plan.fingerprint,
  };
}

/** readRunRecord(folder) reads folder/run.json. Throws InputError when it is missing or not a run record. */
export function readRunRecord(folder: string): RunRecord {
  const path = join(folder, 'run.json');
  let record: RunRecord;
  try {
    record = JSON.parse(readFileSync(path, 'utf8')) as RunRecord;
  } catch (error) {
    throw new InputError(`${path}: expected the run.json of a fairaudit run, found ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  if (record?.format !== 'fairaudit-run/1') {
    throw new InputError(`${path}: expected format "fairaudit-run/1", found ${JSON.stringify(record?.format)}`);
  }
  return record;
}

/** The version in package.json. */
export function fairauditVersion(): string {
  return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}

/** The git commit of the package's working tree, or null outside a git checkout. */
export function gitCommit(): string | null {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: packageRoot(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

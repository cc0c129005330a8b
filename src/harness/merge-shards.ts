import { existsSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeFileAtomic } from '../util/atomic-write.js';
import { describeFound, InputError } from '../util/errors.js';
import type { ColumnBlock } from './chunk-payload.js';
import { loadAverage, machine, processCpuSeconds } from './machine.js';
import { claimOutputFolder } from './output-folder.js';
import { shardChunks } from './plan.js';
import { type CheckedResults, openResults, type ResultBatch } from './results-reader.js';
import { ResultsWriter } from './results-writer.js';
import { buildRunRecord, fairauditVersion, gitCommit } from './run-record.js';

/** What mergeShards did. */
export interface MergeSummary {
  outDirectory: string;
  resultsFile: string;
  rows: number;
  shards: number;
  /** What the user should know (a stale lock taken over). */
  notices: string[];
}

/** Options of mergeShards. */
export interface MergeOptions {
  /** Write into a folder holding another experiment's results, replacing them. */
  force?: boolean;
  /** Who merges, in words, recorded in the folder's lock. */
  command?: string;
  /** Called with a notice for the user (a stale lock taken over), as it happens. */
  onNotice?: (notice: string) => void;
}

/** A path compared as the file system sees it (symbolic links resolved where it exists). */
function samePath(path: string): string {
  return existsSync(path) ? realpathSync(path) : resolve(path);
}

/** Reads one shard's checked batches row by row, as the merge takes them. */
class ShardCursor {
  private batch: ResultBatch | undefined;
  private offset = 0;
  private readonly batches: AsyncGenerator<ResultBatch>;

  constructor(readonly shard: CheckedResults) {
    this.batches = shard.batches();
  }

  /** The next rows of the shard: a batch and an offset into it with at most `count` rows. O(1) amortised. */
  async take(count: number): Promise<{ batch: ResultBatch; offset: number; rows: number }> {
    while (this.batch === undefined || this.offset >= this.batch.rows) {
      const next = await this.batches.next();
      if (next.done)
        throw new InputError(
          `${this.shard.resultsFile}: expected more rows for the plan's chunks, found the end of the file`,
        );
      this.batch = next.value;
      this.offset = 0;
    }
    const rows = Math.min(count, this.batch.rows - this.offset);
    const taken = { batch: this.batch, offset: this.offset, rows };
    this.offset += rows;
    return taken;
  }

  /** Reads to the end (the reader's last checks: no rows left over, the row count). */
  async finish(): Promise<void> {
    if (this.batch !== undefined && this.offset < this.batch.rows) {
      throw new InputError(`${this.shard.resultsFile}: expected only the rows of the shard's chunks, found more`);
    }
    const next = await this.batches.next();
    if (!next.done)
      throw new InputError(`${this.shard.resultsFile}: expected only the rows of the shard's chunks, found more`);
  }
}

/**
 * Opens and checks the shard folders (openResults: run.json, SHA-256, columns) and
 * that they are the n distinct shards of one plan; returns them by shard index.
 */
async function openShards(folders: readonly string[]): Promise<CheckedResults[]> {
  const shards: CheckedResults[] = [];
  for (const folder of folders) shards.push(await openResults(folder, { plan: true }));
  const first = shards[0];
  const seen = new Map<number, string>();
  for (const shard of shards) {
    const runFile = join(shard.folder, 'run.json');
    if (shard.plan === null)
      throw new InputError(`${runFile}: expected a known experiment kind, found ${describeFound(shard.record.kind)}`);
    if (shard.record.plan.fingerprint !== first.record.plan.fingerprint) {
      throw new InputError(
        `${runFile}: expected a shard of the same plan ` +
          `as ${first.folder} (fingerprint ${first.record.plan.fingerprint.slice(0, 12)}), found ` +
          `plan ${shard.record.plan.fingerprint.slice(0, 12)}`,
      );
    }
    const index = shard.shard?.index ?? 1;
    const count = shard.shard?.count ?? 1;
    const expectedCount = first.shard?.count ?? 1;
    if (count !== expectedCount)
      throw new InputError(`${runFile}: expected a shard of ${expectedCount}, found shard ${index}/${count}`);
    const earlier = seen.get(index);
    if (earlier !== undefined)
      throw new InputError(
        `${shard.folder}: expected each shard once, found shard ${index}/${count} again (also in ${earlier})`,
      );
    seen.set(index, shard.folder);
  }
  const count = first.shard?.count ?? 1;
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((index) => !seen.has(index));
  if (missing.length > 0) {
    throw new InputError(
      `merge: expected all ${count} shards, found none for shard ${missing.map((i) => `${i}/${count}`).join(', ')}`,
    );
  }
  return [...shards].sort((a, b) => (a.shard?.index ?? 1) - (b.shard?.index ?? 1));
}

/** The seeds and outcome columns of a batch from `offset`, as ResultsWriter takes them. */
function outcomeBlocks(batch: ResultBatch, names: readonly string[]): Record<string, ColumnBlock> {
  const blocks: Record<string, ColumnBlock> = {};
  for (const name of names) blocks[name] = batch.columns[name];
  return blocks;
}

/**
 * mergeShards(folders, outDirectory, options) combines the results of the shards of
 * one plan (each folder holding the results.arrow and run.json of a `--shard i/n` run)
 * into exactly the results.arrow a single run would write, plus a run.json (with its
 * SHA-256) whose provenance lists the folders. Each shard is checked first (run.json,
 * the SHA-256 of its results.arrow, its columns; a folder written before checksums
 * existed is refused) and every row as it is read (its place in the plan, its grid
 * columns, the declared values of its outcome columns). The output folder is claimed
 * (locked; another experiment's only with force) and may not be one of the shards.
 * Streams: memory is one record batch per shard plus one being written, whatever the
 * number of rows. Throws InputError (exit 2) when a folder is not a shard run, the
 * shards belong to different plans, a shard is missing, given twice or damaged, or
 * `--out` is "" or a shard folder; nothing is written then.
 * @param folders the shards' results folders
 * @param outDirectory the merged results folder
 * @param options progress and whether to replace another experiment's results
 * @returns the merged rows and cells
 * @example
 * await mergeShards(['results/q/shard-1-of-2', 'results/q/shard-2-of-2'], 'results/q');
 */
export async function mergeShards(
  folders: readonly string[],
  outDirectory: string,
  options: MergeOptions = {},
): Promise<MergeSummary> {
  const started = new Date();
  const cpuStarted = processCpuSeconds();
  const loadStarted = loadAverage();
  if (folders.length === 0) throw new InputError('merge: expected at least one shard folder, found none');
  if (outDirectory.trim() === '')
    throw new InputError('--out: expected a folder path for the merged results, found ""');
  const onto = folders.find((folder) => samePath(folder) === samePath(outDirectory));
  if (onto !== undefined) {
    // Merging onto a shard would overwrite that shard's results.arrow with the merged table.
    throw new InputError(
      `--out: expected a folder other than the shard folders being merged, ` +
        `found ${describeFound(outDirectory)} (the shard ${describeFound(onto)})`,
    );
  }
  const shards = await openShards(folders);
  const first = shards[0];
  const plan = first.plan as NonNullable<CheckedResults['plan']>;
  const kind = first.kind as NonNullable<CheckedResults['kind']>;
  const out = claimOutputFolder(outDirectory, {
    experiment: plan.experiment,
    fingerprint: plan.fingerprint,
    command: options.command ?? `fairaudit merge --out ${outDirectory}`,
    force: options.force,
  });
  const notices = out.lock.notice === undefined ? [] : [out.lock.notice];
  if (out.lock.notice !== undefined) options.onNotice?.(out.lock.notice);
  let failed = true;
  try {
    const resultsFile = join(outDirectory, 'results.arrow');
    const writer = new ResultsWriter(resultsFile, plan, kind);
    let written: ReturnType<ResultsWriter['close']>;
    try {
      const cursors = shards.map((shard) => new ShardCursor(shard));
      const names = kind.outcomeColumns.map((column) => column.name);
      for (const chunk of shardChunks(plan, null)) {
        const cursor = cursors[chunk.index % cursors.length];
        const cell = plan.cellAt(chunk.cell);
        for (let done = 0; done < chunk.count; ) {
          const { batch, offset, rows } = await cursor.take(chunk.count - done);
          writer.append(
            cell,
            chunk.firstReplicate + done,
            rows,
            batch.columns.seed as readonly string[],
            outcomeBlocks(batch, names),
            offset,
          );
          done += rows;
        }
      }
      for (const cursor of cursors) await cursor.finish();
      written = writer.close();
    } catch (error) {
      writer.abort();
      throw error;
    }
    const finished = new Date();
    const artifacts = [
      {
        file: 'results.arrow',
        sha256: written.sha256,
        bytes: written.bytes,
        rows: written.rows,
        batches: written.batches,
      },
    ];
    const record = buildRunRecord(first.record.config, plan, kind, null, plan.tasks, artifacts, {
      fairauditVersion: fairauditVersion(),
      nodeVersion: process.version,
      gitCommit: gitCommit(),
      masterSeed: plan.seed,
      threads: null,
      shard: null,
      wallSeconds: (finished.getTime() - started.getTime()) / 1000,
      cpuSeconds: processCpuSeconds() - cpuStarted,
      machine: machine(),
      loadAverage: { started: loadStarted, finished: loadAverage() },
      startedAt: started.toISOString(),
      finishedAt: finished.toISOString(),
      resumedChunks: 0,
      ranChunks: 0,
      mergedFrom: [...folders],
    });
    writeFileAtomic(join(outDirectory, 'run.json'), `${JSON.stringify(record, null, 2)}\n`);
    out.removeReplacedReport();
    failed = false;
    return { outDirectory, resultsFile, rows: plan.tasks, shards: shards.length, notices };
  } finally {
    out.release(failed);
  }
}

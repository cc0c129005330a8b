import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../util/atomic-write.js';
import { InputError } from '../util/errors.js';
import { assembleResults, resultColumns, resultMetadata } from './assemble-results.js';
import type { ColumnValue } from './kind-runner.js';
import { findKindRunner } from './kind-runners.js';
import { type ColumnData, decodeResultTable, encodeResultTable } from './results-table.js';
import { buildRunRecord, fairauditVersion, gitCommit, planFromRecord, readRunRecord } from './run-record.js';

/** What mergeShards did. */
export interface MergeSummary {
  outDirectory: string;
  resultsFile: string;
  rows: number;
  shards: number;
}

/**
 * mergeShards(folders, outDirectory) combines the results of the shards of one plan
 * (each folder holding the results.arrow and run.json of a `--shard i/n` run) into
 * exactly the results.arrow a single run would write, plus a run.json whose
 * provenance lists the folders. Throws InputError when a folder is not a shard run,
 * the shards belong to different plans, a shard is missing or given twice, or a
 * replicate is missing or doubled. O(rows × columns).
 */
export function mergeShards(folders: readonly string[], outDirectory: string): MergeSummary {
  const started = new Date();
  if (folders.length === 0) throw new InputError('merge: expected at least one shard folder, found none');
  const records = folders.map((folder) => ({ folder, record: readRunRecord(folder) }));
  const first = records[0];
  const seenShards = new Map<number, string>();
  for (const { folder, record } of records) {
    if (record.plan.fingerprint !== first.record.plan.fingerprint) {
      throw new InputError(
        `${join(folder, 'run.json')}: expected a shard of the same plan as ${first.folder} (fingerprint ${first.record.plan.fingerprint.slice(0, 12)}), found plan ${record.plan.fingerprint.slice(0, 12)}`,
      );
    }
    const shard = record.shard ?? { index: 1, count: 1 };
    const expectedCount = (first.record.shard ?? { count: 1 }).count;
    if (shard.count !== expectedCount) {
      throw new InputError(`${join(folder, 'run.json')}: expected a shard of ${expectedCount}, found shard ${shard.index}/${shard.count}`);
    }
    const earlier = seenShards.get(shard.index);
    if (earlier !== undefined) {
      throw new InputError(`${folder}: expected each shard once, found shard ${shard.index}/${shard.count} again (also in ${earlier})`);
    }
    seenShards.set(shard.index, folder);
  }
  const count = (first.record.shard ?? { count: 1 }).count;
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((index) => !seenShards.has(index));
  if (missing.length > 0) {
    throw new InputError(`merge: expected all ${count} shards, found none for shard ${missing.map((i) => `${i}/${count}`).join(', ')}`);
  }

  const plan = planFromRecord(first.record);
  const kind = findKindRunner(plan.kind);
  if (!kind) throw new InputError(`${join(first.folder, 'run.json')}: expected a known experiment kind, found ${JSON.stringify(plan.kind)}`);
  const cellIndex = new Map(plan.cells.map((cell) => [cell.key, cell.index]));
  const chunksPerCell = Math.ceil(plan.replicates / plan.chunkSize);
  const outcomes = new Map<number, ColumnData>();
  const filled = new Uint8Array(plan.tasks);
  for (const { folder } of records) {
    const file = join(folder, 'results.arrow');
    let bytes: Uint8Array;
    try {
      bytes = readFileSync(file);
    } catch (error) {
      throw new InputError(`${file}: expected the results of a shard, found ${(error as NodeJS.ErrnoException).code ?? 'an error'}`);
    }
    const table = decodeResultTable(bytes, file);
    for (const column of kind.outcomeColumns) {
      if (!(column.name in table.data)) throw new InputError(`${file}: expected the column ${column.name}, found it missing`);
    }
    for (let row = 0; row < table.rows; row++) {
      const cell = cellIndex.get(table.data.cell[row] as string);
      const replicate = table.data.replicate[row] as number;
      if (cell === undefined || !(replicate >= 0 && replicate < plan.replicates)) {
        throw new InputError(`${file}: row ${row}: expected a cell and replicate of the plan, found cell ${table.data.cell[row]} replicate ${replicate}`);
      }
      const task = cell * plan.replicates + replicate;
      if (filled[task]) throw new InputError(`${file}: row ${row}: expected each replicate once, found replicate ${replicate} of cell ${table.data.cell[row]} twice`);
      filled[task] = 1;
      const chunkIndex = cell * chunksPerCell + Math.floor(replicate / plan.chunkSize);
      let data = outcomes.get(chunkIndex);
      if (!data) {
        data = {};
        for (const column of kind.outcomeColumns) data[column.name] = [];
        outcomes.set(chunkIndex, data);
      }
      const offset = replicate - plan.chunks[chunkIndex].firstReplicate;
      for (const column of kind.outcomeColumns) data[column.name][offset] = table.data[column.name][row] as ColumnValue;
    }
  }
  const absent = filled.indexOf(0);
  if (absent >= 0) {
    const cell = plan.cells[Math.floor(absent / plan.replicates)];
    throw new InputError(`merge: expected every replicate of the plan, found replicate ${absent % plan.replicates} of cell ${cell.key} in no shard`);
  }
  const data = assembleResults(plan, kind, plan.chunks, (chunk) => outcomes.get(chunk.index) as ColumnData);
  const resultsFile = join(outDirectory, 'results.arrow');
  writeFileAtomic(resultsFile, encodeResultTable(resultColumns(plan, kind), data, resultMetadata(plan)));
  const finished = new Date();
  const record = buildRunRecord(first.record.config, plan, kind, null, plan.tasks, {
    fairauditVersion: fairauditVersion(),
    nodeVersion: process.version,
    gitCommit: gitCommit(),
    masterSeed: plan.seed,
    threads: null,
    shard: null,
    wallSeconds: (finished.getTime() - started.getTime()) / 1000,
    startedAt: started.toISOString(),
    finishedAt: finished.toISOString(),
    resumedChunks: 0,
    ranChunks: 0,
    mergedFrom: [...folders],
  });
  writeFileAtomic(join(outDirectory, 'run.json'), `${JSON.stringify(record, null, 2)}\n`);
  return { outDirectory, resultsFile, rows: plan.tasks, shards: count };
}

import { createRandom } from '../util/random.js';
import type { ChunkPayload } from './chunk-payload.js';
import type { ColumnValue, KindRunner } from './kind-runner.js';
import type { PlanChunk } from './plan.js';
import { replicateSeed } from './replicate-seed.js';
import type { ColumnData } from './results-table.js';

/**
 * runChunk(kind, context, cell, seed, chunk) runs the chunk's replicates in order,
 * each with its own Random seeded by replicateSeed(seed, cell key, replicate), and
 * returns the kind's outcome columns with the replicate seeds.
 * O(chunk size × cost of a replicate).
 */
export function runChunk(
  kind: KindRunner,
  context: unknown,
  cell: { key: string; settings: Record<string, unknown> },
  seed: string,
  chunk: PlanChunk,
): ChunkPayload {
  const outcomes: ColumnData = {};
  const seeds = new Array<string>(chunk.count);
  for (const column of kind.outcomeColumns) outcomes[column.name] = new Array<ColumnValue>(chunk.count);
  for (let i = 0; i < chunk.count; i++) {
    seeds[i] = replicateSeed(seed, cell.key, chunk.firstReplicate + i);
    const row = kind.runReplicate(context, cell.settings, createRandom(seeds[i]));
    for (const column of kind.outcomeColumns) outcomes[column.name][i] = row[column.name];
  }
  return { rows: chunk.count, seeds, outcomes };
}

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tableFromIPC } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { assembleResults, resultColumns, resultMetadata } from '../../src/harness/assemble-results.js';
import type { ColumnBlock } from '../../src/harness/chunk-payload.js';
import { parseConfig } from '../../src/harness/config.js';
import type { ColumnValue, OutcomeColumn } from '../../src/harness/kind-runner.js';
import { buildPlan, type PlanChunk, replicateSeed } from '../../src/harness/plan.js';
import { decodeResultTable, encodeResultTable } from '../../src/harness/results-table.js';
import { ResultsWriter } from '../../src/harness/results-writer.js';
import { sequentialAuditRunner } from '../../src/kinds/sequential-audit/run.js';
import { sha256Hex } from '../../src/util/sha256.js';
import { smallExperimentYaml, temporaryFolder } from './helpers.js';

// Outcome columns of every type, NaN and -0 among the floats.
const outcomeColumns: OutcomeColumn[] = [
  { name: 'decision', type: 'utf8', description: 'text', values: ['reject', 'accept'] },
  { name: 'queries', type: 'int32', description: 'integer' },
  { name: 'statistic', type: 'float64', description: 'float' },
  { name: 'flag', type: 'bool', description: 'boolean' },
];
const kind = { outcomeColumns };
const plan = buildPlan(parseConfig(smallExperimentYaml('writer', 10), 'writer.yaml'), sequentialAuditRunner as never);

function outcome(name: string, replicate: number, cell: number): ColumnValue {
  if (name === 'decision') return replicate % 3 === 0 ? 'reject' : 'accept';
  if (name === 'queries') return replicate * 100 + cell;
  if (name === 'statistic') return replicate === 4 ? Number.NaN : replicate === 5 ? -0 : replicate / 3 + cell;
  return (replicate + cell) % 2 === 0;
}

/** A chunk's outcomes as arrays and as ColumnBlocks (what the checkpoints give the writer). */
function chunkData(chunk: PlanChunk) {
  const arrays: Record<string, ColumnValue[]> = {};
  const blocks: Record<string, ColumnBlock> = {};
  for (const column of outcomeColumns) {
    arrays[column.name] = Array.from({ length: chunk.count }, (_, i) =>
      outcome(column.name, chunk.firstReplicate + i, chunk.cell),
    );
    const values = arrays[column.name];
    blocks[column.name] =
      column.type === 'int32'
        ? Int32Array.from(values as number[])
        : column.type === 'float64'
          ? Float64Array.from(values as number[])
          : column.type === 'bool'
            ? Uint8Array.from(values, (v) => (v ? 1 : 0))
            : (values as string[]);
  }
  const seeds = Array.from({ length: chunk.count }, (_, i) =>
    replicateSeed(plan.seed, plan.cellAt(chunk.cell).key, chunk.firstReplicate + i),
  );
  return { arrays, blocks, seeds };
}

function write(batchRows: number): { path: string; summary: ReturnType<ResultsWriter['close']> } {
  const path = join(temporaryFolder(), 'results.arrow');
  const writer = new ResultsWriter(path, plan, kind, batchRows);
  for (const chunk of plan.chunks) {
    const { blocks, seeds } = chunkData(chunk);
    writer.append(plan.cellAt(chunk.cell), chunk.firstReplicate, chunk.count, seeds, blocks);
  }
  return { path, summary: writer.close() };
}

describe('ResultsWriter(path, plan, kind, batchRows)', () => {
  it('with the rows in one batch writes exactly the bytes encodeResultTable writes, and returns their SHA-256', () => {
    const { path, summary } = write(65_536);
    const expected = encodeResultTable(
      resultColumns(plan, kind),
      assembleResults(
        plan,
        { ...sequentialAuditRunner, outcomeColumns } as never,
        plan.chunks,
        (chunk) => chunkData(chunk).arrays,
        (chunk) => chunkData(chunk).seeds,
      ),
      resultMetadata(plan),
    );
    const bytes = readFileSync(path);
    expect(Buffer.from(expected).equals(bytes)).toBe(true);
    expect(summary).toEqual({ path, rows: 40, batches: 1, bytes: bytes.byteLength, sha256: sha256Hex(bytes) });
  });

  it(
    'cuts longer results into batches of batchRows rows (chunks split across them) that read back as the same ' +
      'table',
    () => {
      const whole = decodeResultTable(readFileSync(write(65_536).path), 'whole');
      const { path, summary } = write(6);
      const table = tableFromIPC(readFileSync(path));
      expect(table.batches.map((batch) => batch.numRows)).toEqual([6, 6, 6, 6, 6, 6, 4]);
      expect(summary.batches).toBe(7);
      const cut = decodeResultTable(readFileSync(path), 'cut');
      expect(cut.columns).toEqual(whole.columns);
      expect(cut.metadata).toEqual(whole.metadata);
      for (const column of whole.columns)
        expect(Object.is(cut.data[column.name][5], whole.data[column.name][5])).toBe(true);
      expect(cut.data).toEqual(whole.data);
    },
  );
});

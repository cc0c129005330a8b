import { type ArrowFileSummary, ArrowFileWriter, type ColumnBatch } from '../util/arrow-file-writer.js';
import { resultColumns, resultMetadata } from './assemble-results.js';
import type { ColumnBlock } from './chunk-payload.js';
import type { KindRunner } from './kind-runner.js';
import type { Plan, PlanCell } from './plan.js';
import type { ResultColumn } from './results-table.js';

/**
 * Rows per record batch of results.arrow: a run of at most this many replicates is one
 * batch, byte for byte the file encodeResultTable writes for the same rows; a longer
 * one is cut into batches of this many rows (the last one shorter).
 */
export const RESULTS_BATCH_ROWS = 65_536;

/** The buffer of one column of the batch being filled. */
type ColumnBuffer =
  | { type: 'int32'; values: Int32Array }
  | { type: 'float64'; values: Float64Array }
  | { type: 'bool'; values: Uint8Array }
  | { type: 'utf8'; indices: Int32Array; codes: Map<string, number> };

function columnBuffer(column: ResultColumn, rows: number): ColumnBuffer {
  switch (column.type) {
    case 'int32':
      return { type: 'int32', values: new Int32Array(rows) };
    case 'float64':
      return { type: 'float64', values: new Float64Array(rows) };
    case 'bool':
      return { type: 'bool', values: new Uint8Array(rows) };
    case 'utf8':
      return { type: 'utf8', indices: new Int32Array(rows), codes: new Map() };
  }
}

function setText(buffer: Extract<ColumnBuffer, { type: 'utf8' }>, row: number, text: string): void {
  let code = buffer.codes.get(text);
  if (code === undefined) {
    code = buffer.codes.size;
    buffer.codes.set(text, code);
  }
  buffer.indices[row] = code;
}

/** Sets one value of a buffer from a ColumnBlock or a single value. */
function setValue(buffer: ColumnBuffer, row: number, value: string | number | boolean): void {
  if (buffer.type === 'utf8') setText(buffer, row, String(value));
  else if (buffer.type === 'bool') buffer.values[row] = value === true || value === 1 ? 1 : 0;
  else buffer.values[row] = value as number;
}

/**
 * ResultsWriter writes results.arrow (docs/contracts.md, "Results of a run") from
 * chunks given in canonical order, one record batch of RESULTS_BATCH_ROWS rows at a
 * time (ArrowFileWriter), so memory stays one batch whatever the number of replicates
 * (about 15 MB for the quickstart's 17 columns). The plan's columns (experiment, kind,
 * cell, grid settings, replicate) come from the plan; seeds and outcomes from the
 * chunks. utf8 columns are held as indices into their distinct values while a batch
 * fills. The file is written under a temporary name, renamed into place by close(),
 * which returns its rows, bytes and SHA-256 (for run.json).
 */
export class ResultsWriter {
  private readonly columns: ResultColumn[];
  private readonly buffers: Map<string, ColumnBuffer>;
  private readonly seeds: string[];
  private readonly writer: ArrowFileWriter;
  private filled = 0;

  constructor(
    path: string,
    private readonly plan: Plan,
    private readonly kind: Pick<KindRunner, 'outcomeColumns'>,
    private readonly batchRows = RESULTS_BATCH_ROWS,
  ) {
    this.columns = resultColumns(plan, kind);
    this.buffers = new Map(
      this.columns
        .filter((column) => column.name !== 'seed')
        .map((column) => [column.name, columnBuffer(column, batchRows)]),
    );
    this.seeds = new Array<string>(batchRows);
    this.writer = new ArrowFileWriter(path, this.columns, resultMetadata(plan));
  }

  /**
   * append(cell, firstReplicate, count, seeds, outcomes, offset) adds `count` rows of
   * `cell` (replicates firstReplicate, firstReplicate + 1, ...): the seeds and each
   * outcome column's values from position `offset` of the given arrays. Rows must come
   * in canonical order. O(count × columns).
   */
  append(
    cell: PlanCell,
    firstReplicate: number,
    count: number,
    seeds: readonly string[],
    outcomes: Readonly<Record<string, ColumnBlock>>,
    offset = 0,
  ): void {
    let done = 0;
    while (done < count) {
      const take = Math.min(count - done, this.batchRows - this.filled);
      this.fill(cell, firstReplicate + done, take, seeds, outcomes, offset + done);
      done += take;
      if (this.filled === this.batchRows) this.flush();
    }
  }

  private fill(
    cell: PlanCell,
    firstReplicate: number,
    count: number,
    seeds: readonly string[],
    outcomes: Readonly<Record<string, ColumnBlock>>,
    offset: number,
  ): void {
    const start = this.filled;
    const constant = (name: string, value: string | number | boolean) => {
      const buffer = this.buffers.get(name) as ColumnBuffer;
      for (let i = 0; i < count; i++) setValue(buffer, start + i, value);
    };
    constant('experiment', this.plan.experiment);
    constant('kind', this.plan.kind);
    constant('cell', cell.key);
    for (const column of this.plan.gridColumns) constant(column.column, cell.columns[column.column]);
    const replicate = (this.buffers.get('replicate') as { values: Int32Array }).values;
    for (let i = 0; i < count; i++) {
      replicate[start + i] = firstReplicate + i;
      this.seeds[start + i] = seeds[offset + i];
    }
    for (const column of this.kind.outcomeColumns) {
      const buffer = this.buffers.get(column.name) as ColumnBuffer;
      const block = outcomes[column.name];
      if (buffer.type === 'utf8') {
        const texts = block as readonly string[];
        for (let i = 0; i < count; i++) setText(buffer, start + i, texts[offset + i]);
      } else if (buffer.type === 'bool') {
        for (let i = 0; i < count; i++) buffer.values[start + i] = block[offset + i] ? 1 : 0;
      } else {
        buffer.values.set((block as Int32Array | Float64Array).subarray(offset, offset + count), start);
      }
    }
    this.filled += count;
  }

  /** Writes the filled rows as one record batch. */
  private flush(): void {
    if (this.filled === 0) return;
    const rows = this.filled;
    const batch: Record<string, ColumnBatch> = {};
    for (const column of this.columns) {
      if (column.name === 'seed') {
        batch.seed = rows === this.batchRows ? this.seeds : this.seeds.slice(0, rows);
        continue;
      }
      const buffer = this.buffers.get(column.name) as ColumnBuffer;
      if (buffer.type === 'utf8') {
        batch[column.name] = { indices: buffer.indices.subarray(0, rows), dictionary: [...buffer.codes.keys()] };
        buffer.codes.clear();
      } else {
        batch[column.name] = buffer.values.subarray(0, rows);
      }
    }
    this.writer.writeBatch(batch, rows);
    this.filled = 0;
  }

  /** close() writes the last batch and the footer, and renames the file into place; returns rows, batches, bytes and
   * SHA-256. */
  close(): ArrowFileSummary {
    this.flush();
    return this.writer.close();
  }

  /** abort() removes the temporary file; the target is left as it was. */
  abort(): void {
    this.writer.abort();
  }
}

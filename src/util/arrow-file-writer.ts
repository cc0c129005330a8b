import { createHash, randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import {
  Bool,
  type Data,
  type DataType,
  Field,
  Float64,
  Int32,
  makeData,
  RecordBatch,
  RecordBatchFileWriter,
  Schema,
  Struct,
  Utf8,
} from 'apache-arrow';
import { writeProblem } from './errors.js';

/** The column types of fairaudit's tables (results, pools): no nulls. */
export type ArrowColumnType = 'utf8' | 'int32' | 'float64' | 'bool';

/** A column of the file: its name and type. */
export interface ArrowColumnSpec {
  name: string;
  type: ArrowColumnType;
}

/**
 * One batch of one column: an Int32Array or Float64Array for int32 and float64, a
 * Uint8Array of 0/1 for bool, and for utf8 either the strings or, cheaper for the
 * repeated texts of a results table (experiment, cell, decision), indices into a list
 * of distinct strings (written as plain utf8: the file does not change).
 */
export type ColumnBatch =
  | Int32Array
  | Float64Array
  | Uint8Array
  | readonly string[]
  | { indices: Int32Array; dictionary: readonly string[] };

/** What a closed writer wrote. */
export interface ArrowFileSummary {
  path: string;
  rows: number;
  batches: number;
  bytes: number;
  /** SHA-256 of the file's bytes, computed as they were written (for run.json). */
  sha256: string;
}

/** arrowType(type) is the Arrow data type of a fairaudit column type. O(1). */
export function arrowType(type: ArrowColumnType): DataType {
  switch (type) {
    case 'utf8':
      return new Utf8();
    case 'int32':
      return new Int32();
    case 'float64':
      return new Float64();
    case 'bool':
      return new Bool();
  }
}

/**
 * Arrow's utf8 layout (int32 offsets, then the bytes) for `rows` strings: from the
 * strings themselves (their UTF-8 written straight into one buffer, no Buffer per
 * string) or from indices into distinct strings (each encoded once). O(bytes + rows).
 */
function utf8Data(values: ColumnBatch, rows: number, name: string): Data {
  const offsets = new Int32Array(rows + 1);
  let bytes: Buffer;
  if (Array.isArray(values)) {
    const texts = values as readonly string[];
    for (let i = 0; i < rows; i++) offsets[i + 1] = offsets[i] + Buffer.byteLength(texts[i], 'utf8');
    bytes = Buffer.allocUnsafe(offsets[rows]);
    for (let i = 0; i < rows; i++) bytes.write(texts[i], offsets[i], 'utf8');
  } else if ('indices' in (values as object)) {
    const { indices, dictionary } = values as { indices: Int32Array; dictionary: readonly string[] };
    const encoded = dictionary.map((text) => Buffer.from(text, 'utf8'));
    for (let i = 0; i < rows; i++) offsets[i + 1] = offsets[i] + encoded[indices[i]].length;
    bytes = Buffer.allocUnsafe(offsets[rows]);
    for (let i = 0; i < rows; i++) encoded[indices[i]].copy(bytes, offsets[i]);
  } else {
    throw new Error(`ArrowFileWriter: column ${name}: expected strings or {indices, dictionary} for utf8`);
  }
  return makeData({
    type: new Utf8(),
    length: rows,
    nullCount: 0,
    valueOffsets: offsets,
    data: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
  });
}

/**
 * Arrow's bit-packed booleans (least significant bit first) from 0/1 bytes, in a buffer
 * of ⌈rows / 8⌉ bytes rounded up to a multiple of 64 (at least 64): the size
 * apache-arrow's builder (vectorFromArray) gives it, so one batch has the bytes
 * tableToIPC writes for such a table.
 */
function boolData(values: Uint8Array, rows: number): Data {
  const bits = new Uint8Array(Math.max(64, Math.ceil(Math.ceil(rows / 8) / 64) * 64));
  for (let i = 0; i < rows; i++) if (values[i]) bits[i >> 3] |= 1 << (i & 7);
  return makeData({ type: new Bool(), length: rows, nullCount: 0, data: bits });
}

function columnData(spec: ArrowColumnSpec, values: ColumnBatch | undefined, rows: number): Data {
  if (values === undefined) throw new Error(`ArrowFileWriter: the batch has no column ${spec.name}`);
  const check = (length: number) => {
    if (length !== rows) throw new Error(`ArrowFileWriter: column ${spec.name} has ${length} values, expected ${rows}`);
  };
  switch (spec.type) {
    case 'utf8':
      check(
        'indices' in (values as object)
          ? (values as { indices: Int32Array }).indices.length
          : (values as readonly string[]).length,
      );
      return utf8Data(values, rows, spec.name);
    case 'int32':
      if (!(values instanceof Int32Array))
        throw new Error(`ArrowFileWriter: column ${spec.name}: expected an Int32Array`);
      check(values.length);
      return makeData({ type: new Int32(), length: rows, nullCount: 0, data: values });
    case 'float64':
      if (!(values instanceof Float64Array))
        throw new Error(`ArrowFileWriter: column ${spec.name}: expected a Float64Array`);
      check(values.length);
      return makeData({ type: new Float64(), length: rows, nullCount: 0, data: values });
    case 'bool':
      if (!(values instanceof Uint8Array))
        throw new Error(`ArrowFileWriter: column ${spec.name}: expected a Uint8Array of 0/1`);
      check(values.length);
      return boolData(values, rows);
  }
}

/**
 * ArrowFileWriter writes an Arrow IPC file (the format `tableToIPC(table, 'file')`
 * writes) one record batch at a time, so a table of any length is written in memory
 * bounded by one batch: each batch is encoded by apache-arrow's RecordBatchFileWriter
 * and its bytes go straight to the file (write(2)), never collected. The file is
 * written under a temporary name and renamed into place by close(), which also
 * returns its SHA-256, computed on the way.
 *
 * The bytes depend only on the columns, the metadata and the batches given, so equal
 * rows cut into equal batches give byte-identical files; with one batch they are the
 * bytes tableToIPC writes for that table (tested).
 *
 * Memory: O(columns × rows of one batch); time O(bytes). The harness's ResultsWriter
 * (src/harness/results-writer.ts) writes results.arrow with it. A write the file
 * system refuses is an InputError naming the path (writeProblem). Uses one internal of apache-arrow 21 (the writer's
 * byte queue, `_sink._values`),
 * drained after each batch; tests fail if that changes.
 */
export class ArrowFileWriter {
  private readonly schema: Schema;
  private readonly writer: RecordBatchFileWriter;
  private readonly temporary: string;
  private readonly hash = createHash('sha256');
  private descriptor: number | null;
  private rows = 0;
  private batches = 0;
  private bytes = 0;

  constructor(
    readonly path: string,
    readonly columns: readonly ArrowColumnSpec[],
    metadata: ReadonlyMap<string, string> = new Map(),
  ) {
    // Fields nullable exactly as encodeResultTable's Table makes them (utf8 and bool
    // nullable, int32 and float64 not), so one batch gives the same bytes.
    this.schema = new Schema(
      columns.map(
        (column) => new Field(column.name, arrowType(column.type), column.type === 'bool' || column.type === 'utf8'),
      ),
      new Map(metadata),
    );
    this.writer = new RecordBatchFileWriter();
    this.temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
    this.descriptor = this.refused(() => openSync(this.temporary, 'wx'));
  }

  /** Runs a file operation; a write the file system refuses (no space, no permission) is an InputError naming the path.
   * */
  private refused<T>(operation: () => T): T {
    try {
      return operation();
    } catch (error) {
      const problem = writeProblem(this.path, error);
      if (problem === undefined) throw error;
      this.abort();
      throw problem;
    }
  }

  /** Writes the queued bytes of the Arrow writer to the file. O(bytes). */
  private drain(): void {
    const sink = (this.writer as unknown as { _sink: { _values: Uint8Array[] } })._sink;
    for (const chunk of sink._values.splice(0)) {
      let offset = 0;
      while (offset < chunk.byteLength)
        offset += this.refused(() => writeSync(this.descriptor as number, chunk, offset, chunk.byteLength - offset));
      this.hash.update(chunk);
      this.bytes += chunk.byteLength;
    }
  }

  /**
   * writeBatch(batch, rows) appends one record batch of `rows` rows: `batch` maps
   * every column name to its values (see ColumnBatch). Throws an Error when a column is
   * missing, of the wrong kind or length, or the writer is closed. O(rows × columns).
   */
  writeBatch(batch: Readonly<Record<string, ColumnBatch>>, rows: number): void {
    if (this.descriptor === null) throw new Error('ArrowFileWriter: writeBatch after close or abort');
    const children = this.columns.map((column) => columnData(column, batch[column.name], rows));
    const data = makeData({ type: new Struct(this.schema.fields), length: rows, nullCount: 0, children });
    this.writer.write(new RecordBatch(this.schema, data));
    this.drain();
    this.rows += rows;
    this.batches += 1;
  }

  /**
   * close() writes the footer (an empty table when no batch was written), syncs the
   * file to disk and renames it into place; returns rows, batches, bytes and SHA-256.
   */
  close(): ArrowFileSummary {
    if (this.descriptor === null) throw new Error('ArrowFileWriter: close after close or abort');
    if (this.batches === 0) {
      const data = makeData({
        type: new Struct(this.schema.fields),
        length: 0,
        nullCount: 0,
        children: this.columns.map((column) => columnData(column, emptyColumn(column.type), 0)),
      });
      this.writer.write(new RecordBatch(this.schema, data));
    }
    this.writer.close();
    this.drain();
    const descriptor = this.descriptor;
    this.refused(() => fsyncSync(descriptor));
    closeSync(descriptor);
    this.descriptor = null;
    this.refused(() => renameSync(this.temporary, this.path));
    return {
      path: this.path,
      rows: this.rows,
      batches: Math.max(1, this.batches),
      bytes: this.bytes,
      sha256: this.hash.digest('hex'),
    };
  }

  /** abort() closes and removes the temporary file; the target path is left as it was. Idempotent. */
  abort(): void {
    if (typeof this.descriptor === 'number') closeSync(this.descriptor);
    this.descriptor = null;
    rmSync(this.temporary, { force: true });
  }
}

function emptyColumn(type: ArrowColumnType): ColumnBatch {
  switch (type) {
    case 'utf8':
      return [];
    case 'int32':
      return new Int32Array(0);
    case 'float64':
      return new Float64Array(0);
    case 'bool':
      return new Uint8Array(0);
  }
}

import { describeFound, InputError } from '../util/errors.js';
import type { ColumnType, ColumnValue, OutcomeColumn } from './kind-runner.js';
import type { ColumnData } from './results-table.js';

/**
 * A completed chunk as bytes: what a worker thread sends back (transferred, not
 * cloned) and what the main thread writes, unchanged, as the chunk's checkpoint.
 *
 * Layout (little-endian): the 4 ASCII bytes "FACK", a uint32 format version, a uint32
 * header length, the header as UTF-8 JSON padded with spaces to a multiple of 8, then
 * one segment per column, each starting at a multiple of 8: float64 and int32 columns
 * as their raw values, bool columns as one byte per row, utf8 columns as int32 indices
 * into the column's list of distinct values, which the header holds. The header lists
 * the rows, the replicate seeds (which the worker computed anyway) and the columns with
 * their types, so a reader checks them against the kind it expects.
 */
export interface ChunkPayload {
  rows: number;
  /** The seed of each replicate of the chunk (replicateSeed), in order. */
  seeds: string[];
  outcomes: ColumnData;
}

const MAGIC = 0x4b434146; // "FACK" read as a little-endian uint32
const VERSION = 1;

interface HeaderColumn {
  name: string;
  type: ColumnType;
  /** utf8 columns: the distinct values, in order of first appearance. */
  values?: string[];
}

interface Header {
  rows: number;
  seeds: string[];
  columns: HeaderColumn[];
}

const align8 = (n: number) => Math.ceil(n / 8) * 8;

function segmentBytes(type: ColumnType, rows: number): number {
  if (type === 'float64') return 8 * rows;
  if (type === 'int32' || type === 'utf8') return 4 * rows;
  return rows;
}

/**
 * encodeChunkPayload(columns, payload) lays out a chunk's outcomes and seeds as the
 * bytes described at ChunkPayload. The same chunk always gives the same bytes.
 * O(rows × columns).
 */
export function encodeChunkPayload(columns: readonly OutcomeColumn[], payload: ChunkPayload): Uint8Array {
  const { rows } = payload;
  const header: Header = { rows, seeds: payload.seeds, columns: [] };
  const indices = new Map<string, Int32Array>();
  for (const column of columns) {
    const entry: HeaderColumn = { name: column.name, type: column.type };
    if (column.type === 'utf8') {
      const distinct = new Map<string, number>();
      const codes = new Int32Array(rows);
      const values = payload.outcomes[column.name];
      for (let i = 0; i < rows; i++) {
        const value = String(values[i]);
        let code = distinct.get(value);
        if (code === undefined) {
          code = distinct.size;
          distinct.set(value, code);
        }
        codes[i] = code;
      }
      entry.values = [...distinct.keys()];
      indices.set(column.name, codes);
    }
    header.columns.push(entry);
  }
  const headerText = JSON.stringify(header);
  const headerBytes = new TextEncoder().encode(headerText);
  const headerLength = align8(12 + headerBytes.length) - 12;
  let total = 12 + headerLength;
  for (const column of columns) total += align8(segmentBytes(column.type, rows));
  const bytes = new Uint8Array(total);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, VERSION, true);
  view.setUint32(8, headerLength, true);
  bytes.set(headerBytes, 12);
  bytes.fill(0x20, 12 + headerBytes.length, 12 + headerLength);
  let offset = 12 + headerLength;
  for (const column of columns) {
    const values = payload.outcomes[column.name];
    if (column.type === 'float64') {
      for (let i = 0; i < rows; i++) view.setFloat64(offset + 8 * i, values[i] as number, true);
    } else if (column.type === 'int32') {
      for (let i = 0; i < rows; i++) view.setInt32(offset + 4 * i, values[i] as number, true);
    } else if (column.type === 'utf8') {
      const codes = indices.get(column.name) as Int32Array;
      for (let i = 0; i < rows; i++) view.setInt32(offset + 4 * i, codes[i], true);
    } else {
      for (let i = 0; i < rows; i++) bytes[offset + i] = values[i] ? 1 : 0;
    }
    offset += align8(segmentBytes(column.type, rows));
  }
  return bytes;
}

/** A column of a chunk or a batch: typed values (bool as 0/1 bytes), or strings for utf8. */
export type ColumnBlock = Float64Array | Int32Array | Uint8Array | readonly string[];

/** A chunk read back from its payload bytes: its seeds and each outcome column as a ColumnBlock. */
export interface DecodedChunk {
  rows: number;
  seeds: string[];
  columns: Record<string, ColumnBlock>;
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/** The float64 or int32 values of a segment, copied (the segment need not be aligned in its buffer). */
function numberSegment(
  bytes: Uint8Array,
  offset: number,
  rows: number,
  type: 'float64' | 'int32',
): Float64Array | Int32Array {
  const width = type === 'float64' ? 8 : 4;
  const start = bytes.byteOffset + offset;
  if (start % width === 0) {
    const view =
      type === 'float64' ? new Float64Array(bytes.buffer, start, rows) : new Int32Array(bytes.buffer, start, rows);
    return view.slice();
  }
  const data = new DataView(bytes.buffer, start, rows * width);
  const values = type === 'float64' ? new Float64Array(rows) : new Int32Array(rows);
  for (let i = 0; i < rows; i++)
    values[i] = type === 'float64' ? data.getFloat64(i * 8, true) : data.getInt32(i * 4, true);
  return values;
}

/**
 * decodeChunkColumns(bytes, columns, where) reads bytes written by encodeChunkPayload
 * back into seeds and typed outcome columns (float64 bits preserved; bool as 0/1
 * bytes; utf8 as strings). Throws InputError naming `where` when the bytes are not
 * such a payload, hold other columns than `columns`, or a utf8 value outside its
 * column's `values` (when the kind declares them). O(rows × columns).
 */
export function decodeChunkColumns(bytes: Uint8Array, columns: readonly OutcomeColumn[], where: string): DecodedChunk {
  const fail = (found: string): never => {
    throw new InputError(`${where}: expected a fairaudit chunk checkpoint (format ${VERSION}), found ${found}`);
  };
  if (bytes.length < 12) fail(`${bytes.length} bytes`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0, true) !== MAGIC) fail('other bytes');
  if (view.getUint32(4, true) !== VERSION) fail(`format ${view.getUint32(4, true)}`);
  const headerLength = view.getUint32(8, true);
  if (12 + headerLength > bytes.length) fail('a truncated file');
  let header: Header;
  try {
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(12, 12 + headerLength))) as Header;
  } catch {
    return fail('an unreadable header');
  }
  if (typeof header !== 'object' || header === null || !Array.isArray(header.columns)) fail('an unreadable header');
  const { rows } = header;
  const expected = columns.map((c) => `${c.name}:${c.type}`).join(',');
  const found = header.columns.map((c) => `${c?.name}:${c?.type}`).join(',');
  if (found !== expected) fail(`the columns ${found} instead of ${expected}`);
  if (!Number.isInteger(rows) || rows < 0 || !isStringArray(header.seeds) || header.seeds.length !== rows)
    fail('a header whose rows and seeds disagree');
  let offset = 12 + headerLength;
  let total = offset;
  for (const column of columns) total += align8(segmentBytes(column.type, rows));
  if (total !== bytes.length) fail(`${bytes.length} bytes where the header implies ${total}`);
  const decoded: Record<string, ColumnBlock> = {};
  for (const [c, column] of columns.entries()) {
    if (column.type === 'float64' || column.type === 'int32') {
      decoded[column.name] = numberSegment(bytes, offset, rows, column.type);
    } else if (column.type === 'utf8') {
      const distinct = header.columns[c].values;
      if (!isStringArray(distinct)) return fail(`no list of values for column ${column.name}`);
      const outside =
        column.values === undefined ? undefined : distinct.find((value) => !column.values?.includes(value));
      if (outside !== undefined)
        fail(`the value ${describeFound(outside)} in column ${column.name}, outside ${column.values?.join(', ')}`);
      const codes = numberSegment(bytes, offset, rows, 'int32');
      const values = new Array<string>(rows);
      for (let i = 0; i < rows; i++) {
        const value = distinct[codes[i]];
        if (value === undefined) fail(`a bad value index in column ${column.name}`);
        values[i] = value;
      }
      decoded[column.name] = values;
    } else {
      decoded[column.name] = bytes.slice(offset, offset + rows);
    }
    offset += align8(segmentBytes(column.type, rows));
  }
  return { rows, seeds: header.seeds, columns: decoded };
}

/**
 * decodeChunkPayload(bytes, columns, where) is decodeChunkColumns with plain outcome
 * arrays (bool as true/false), as runReplicate wrote them. Throws like it.
 * O(rows × columns).
 */
export function decodeChunkPayload(bytes: Uint8Array, columns: readonly OutcomeColumn[], where: string): ChunkPayload {
  const decoded = decodeChunkColumns(bytes, columns, where);
  const outcomes: ColumnData = {};
  for (const column of columns) {
    const block = decoded.columns[column.name];
    outcomes[column.name] =
      column.type === 'bool'
        ? Array.from(block as Uint8Array, (value) => value === 1)
        : Array.from(block as ArrayLike<ColumnValue>);
  }
  return { rows: decoded.rows, seeds: decoded.seeds, outcomes };
}

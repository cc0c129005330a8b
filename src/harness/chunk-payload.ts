import { InputError } from '../util/errors.js';
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

/**
 * decodeChunkPayload(bytes, columns, where) reads bytes written by encodeChunkPayload
 * back into seeds and plain outcome arrays (float64 bits preserved). Throws InputError
 * naming `where` when the bytes are not such a payload or hold other columns than
 * `columns`. O(rows × columns).
 */
export function decodeChunkPayload(bytes: Uint8Array, columns: readonly OutcomeColumn[], where: string): ChunkPayload {
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
  const { rows } = header;
  const expected = columns.map((c) => `${c.name}:${c.type}`).join(',');
  const found = header.columns.map((c) => `${c.name}:${c.type}`).join(',');
  if (found !== expected) fail(`the columns ${found} instead of ${expected}`);
  if (!Number.isInteger(rows) || rows < 0 || header.seeds.length !== rows) fail('a header whose rows and seeds disagree');
  let offset = 12 + headerLength;
  let total = offset;
  for (const column of columns) total += align8(segmentBytes(column.type, rows));
  if (total !== bytes.length) fail(`${bytes.length} bytes where the header implies ${total}`);
  const outcomes: ColumnData = {};
  for (const column of header.columns) {
    const values = new Array<ColumnValue>(rows);
    if (column.type === 'float64') {
      for (let i = 0; i < rows; i++) values[i] = view.getFloat64(offset + 8 * i, true);
    } else if (column.type === 'int32') {
      for (let i = 0; i < rows; i++) values[i] = view.getInt32(offset + 4 * i, true);
    } else if (column.type === 'utf8') {
      const distinct = column.values ?? [];
      for (let i = 0; i < rows; i++) {
        const value = distinct[view.getInt32(offset + 4 * i, true)];
        if (value === undefined) fail(`a bad value index in column ${column.name}`);
        values[i] = value;
      }
    } else {
      for (let i = 0; i < rows; i++) values[i] = bytes[offset + i] === 1;
    }
    outcomes[column.name] = values;
    offset += align8(segmentBytes(column.type, rows));
  }
  return { rows, seeds: header.seeds, outcomes };
}

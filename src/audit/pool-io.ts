import { type Table, tableFromArrays, tableFromIPC, tableToIPC, type Vector } from 'apache-arrow';
import { writeFileAtomic } from '../util/atomic-write.js';
import { CsvReader, type CsvRecord } from '../util/csv-reader.js';
import { inputError } from '../util/errors.js';
import { MAX_POOL_FILE_BYTES, readFileCapped } from '../util/read-capped.js';
import { type AuditPool, POOL_COLUMNS, type PoolColumn } from './pool.js';

/** The largest logit a pool may hold, in size: far beyond any log-odds, far below where x² overflows. */
export const MAX_ABS_LOGIT = 1e6;

/** Options of readPoolFile. */
export interface ReadPoolOptions {
  /**
   * Optional columns that must be present: 'score' for score access, 'logit' for
   * logit access. group, label and decision are always required.
   */
  require?: ReadonlyArray<'score' | 'logit'>;
}

const REQUIRED_COLUMNS: readonly PoolColumn[] = ['group', 'label', 'decision'];

/** Builds the pool's columns one value at a time, validating each as it comes. */
class PoolColumnsBuilder {
  readonly columns: Omit<AuditPool, 'size' | 'source'>;

  constructor(size: number, present: ReadonlySet<PoolColumn>) {
    this.columns = {
      group: new Uint8Array(size),
      label: new Uint8Array(size),
      decision: new Uint8Array(size),
      score: present.has('score') ? new Float64Array(size) : null,
      logit: present.has('logit') ? new Float64Array(size) : null,
      id: present.has('id') ? new Int32Array(size) : null,
    };
  }

  /** Stores value (already a number, NaN if unreadable) at row, or throws naming where. */
  set(column: PoolColumn, row: number, value: number, found: unknown, where: () => string): void {
    switch (column) {
      case 'group':
      case 'label':
      case 'decision':
        if (value !== 0 && value !== 1) throw inputError({ where: where(), expected: '0 or 1', found });
        this.columns[column][row] = value;
        return;
      case 'score':
        if (!(value >= 0 && value <= 1)) {
          throw inputError({ where: where(), expected: 'a score in [0, 1]', found });
        }
        this.columns.score![row] = value;
        return;
      case 'logit':
        if (!(Math.abs(value) <= MAX_ABS_LOGIT))
          throw inputError({
            where: where(),
            expected: `a finite logit of at most ${MAX_ABS_LOGIT} in size (the log-odds of any double probability lie within ±745; larger ones overflow the sums of squares of the logit GLR)`,
            found,
          });
        this.columns.logit![row] = value;
        return;
      case 'id':
        if (!Number.isInteger(value) || value < -2147483648 || value > 2147483647) {
          throw inputError({ where: where(), expected: 'a 32-bit integer id', found });
        }
        this.columns.id![row] = value;
        return;
    }
  }

  finish(size: number, source: string): AuditPool {
    return { size, ...this.columns, source };
  }
}

function checkColumns(path: string, present: ReadonlySet<PoolColumn>, options: ReadPoolOptions | undefined): void {
  const needed = [...REQUIRED_COLUMNS, ...(options?.require ?? [])];
  for (const column of needed) {
    if (!present.has(column)) {
      throw inputError({
        where: `${path}: column "${column}"`,
        expected: `a column named "${column}" (pool columns: ${POOL_COLUMNS.join(', ')})`,
        found: `columns ${[...present].join(', ') || 'none'}`,
      });
    }
  }
}

function readFileBytes(path: string): Buffer {
  return readFileCapped(path, MAX_POOL_FILE_BYTES, 'a readable pool file');
}

/**
 * A plain decimal cell: sign, digits with an optional point, optional exponent.
 * Number() alone also reads "0x1", "0b1" and "0o1" as 1, which a pool cell never means.
 */
const DECIMAL_NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** Calls onRecord with each CSV record of text (RFC 4180: src/util/csv-reader.ts); its return value selects columns as CsvReader's handler does. */
function eachCsvRecord(path: string, text: string, onRecord: (record: CsvRecord) => unknown): void {
  const reader = new CsvReader({ file: path }, onRecord);
  reader.push(text);
  reader.end();
}

/**
 * Parses a CSV pool: a header line, then one row per record, read as RFC 4180 (quoted
 * cells such as "0", LF, CRLF or lone-CR line ends, blank lines skipped; a first pass
 * counts the rows, so the columns are allocated once), every cell a plain decimal.
 */
function readPoolCsv(path: string, text: string, options: ReadPoolOptions | undefined): AuditPool {
  let records = 0;
  eachCsvRecord(path, text, () => {
    records++;
    return [];
  });
  if (records === 0) throw inputError({ where: path, expected: 'a CSV header line', found: 'an empty file' });
  const size = records - 1;
  let header: string[] = [];
  let columnOf: Array<PoolColumn | null> = [];
  let builder: PoolColumnsBuilder | undefined;
  let row = -1;
  eachCsvRecord(path, text, ({ fields, line }) => {
    if (row < 0) {
      header = fields.map((name) => name.trim());
      const known = new Set<string>(POOL_COLUMNS);
      const present = new Set<PoolColumn>();
      columnOf = header.map((name) => {
        if (!known.has(name)) return null;
        if (present.has(name as PoolColumn)) {
          throw inputError({
            where: `${path}: line ${line}`,
            expected: 'each column named once',
            found: `column "${name}" twice`,
          });
        }
        present.add(name as PoolColumn);
        return name as PoolColumn;
      });
      checkColumns(path, present, options);
      builder = new PoolColumnsBuilder(size, present);
      row = 0;
      return;
    }
    if (fields.length !== header.length) {
      throw inputError({
        where: `${path}: row ${row + 1} (line ${line})`,
        expected: `${header.length} comma-separated cells`,
        found: `${fields.length} cells: ${fields.join(',')}`,
      });
    }
    for (let c = 0; c < fields.length; c++) {
      const column = columnOf[c];
      if (column === null) continue;
      const cell = fields[c].trim();
      const value = DECIMAL_NUMBER.test(cell) ? Number(cell) : Number.NaN;
      const at = row;
      (builder as PoolColumnsBuilder).set(
        column,
        at,
        value,
        cell,
        () => `${path}: row ${at + 1} (line ${line}), column "${column}"`,
      );
    }
    row++;
  });
  return (builder as PoolColumnsBuilder).finish(size, path);
}

/** Reads an Arrow IPC pool (file or stream format). */
function readPoolArrow(path: string, bytes: Uint8Array, options: ReadPoolOptions | undefined): AuditPool {
  if (bytes.byteLength === 0)
    throw inputError({ where: path, expected: 'an Arrow IPC file', found: 'an empty file (0 bytes)' });
  let table: Table;
  try {
    table = tableFromIPC(bytes);
  } catch (error) {
    throw inputError({ where: path, expected: 'an Arrow IPC file', found: (error as Error).message });
  }
  const present = new Set<PoolColumn>();
  const vectors = new Map<PoolColumn, Vector>();
  // getChild() returns the first of two columns of one name: two decision columns that
  // disagree would be read as the first one silently (the CSV reader refuses them).
  const names = table.schema.fields.map((field) => field.name);
  for (const column of POOL_COLUMNS) {
    if (names.indexOf(column) !== names.lastIndexOf(column)) {
      throw inputError({
        where: `${path}: schema`,
        expected: 'each column named once',
        found: `column "${column}" ${names.filter((name) => name === column).length} times`,
      });
    }
  }
  for (const column of POOL_COLUMNS) {
    const vector = table.getChild(column);
    if (vector !== null) {
      present.add(column);
      vectors.set(column, vector);
    }
  }
  checkColumns(path, present, options);
  const size = table.numRows;
  const builder = new PoolColumnsBuilder(size, present);
  for (const [column, vector] of vectors) {
    const values = vector.toArray() as ArrayLike<number | bigint | boolean | string | null>;
    for (let row = 0; row < size; row++) {
      const raw = vector.nullCount > 0 && !vector.isValid(row) ? null : values[row];
      // A text (utf8) column must hold decimals: Number('') and Number(' ') are 0.
      const value =
        raw === null || raw === undefined || (typeof raw === 'string' && !DECIMAL_NUMBER.test(raw.trim()))
          ? Number.NaN
          : Number(raw);
      builder.set(column, row, value, raw, () => `${path}: row ${row + 1}, column "${column}"`);
    }
  }
  return builder.finish(size, path);
}

/**
 * readPoolFile(path, options) reads an audit pool from an Arrow IPC file (`.arrow`,
 * `.feather`, `.ipc`) or a CSV file (anything else) whose columns are named
 * id, group, label, decision, score, logit (id, score and logit optional unless
 * `options.require` names them; other columns are ignored).
 * Validates every cell: group, label, decision in {0, 1}; score in [0, 1]; logit
 * finite; id a 32-bit integer; no missing values.
 * Runs in O(rows x columns).
 * Throws InputError naming the file, row and column of the first bad cell, the
 * missing or doubled column, or a file larger than MAX_POOL_FILE_BYTES (500 MiB).
 */
export function readPoolFile(path: string, options?: ReadPoolOptions): AuditPool {
  const bytes = readFileBytes(path);
  if (/\.(arrow|feather|ipc|arrows)$/i.test(path)) return readPoolArrow(path, bytes, options);
  return readPoolCsv(path, bytes.toString('utf8'), options);
}

/**
 * poolToArrowBytes(pool) serialises a pool as an Arrow IPC file (columns in the
 * canonical order; absent optional columns omitted). O(rows).
 */
export function poolToArrowBytes(pool: AuditPool): Uint8Array {
  const columns: Record<string, Uint8Array | Int32Array | Float64Array> = {};
  if (pool.id !== null) columns.id = pool.id;
  columns.group = pool.group;
  columns.label = pool.label;
  columns.decision = pool.decision;
  if (pool.score !== null) columns.score = pool.score;
  if (pool.logit !== null) columns.logit = pool.logit;
  return tableToIPC(tableFromArrays(columns), 'file');
}

/**
 * writePoolFile(path, pool) writes the pool as an Arrow IPC file atomically
 * (temporary name, then rename), so a reader never sees half a pool. O(rows).
 */
export function writePoolFile(path: string, pool: AuditPool): void {
  writeFileAtomic(path, poolToArrowBytes(pool));
}

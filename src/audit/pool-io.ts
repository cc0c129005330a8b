import { type Table, tableFromArrays, tableFromIPC, tableToIPC, type Vector } from 'apache-arrow';
import { writeFileAtomic } from '../util/atomic-write.js';
import { CsvReader, type CsvRecord } from '../util/csv-reader.js';
import { describeFound, InputError, inputError } from '../util/errors.js';
import { MAX_POOL_FILE_BYTES, readFileCapped } from '../util/read-capped.js';
import { GroupCoder } from './group-coder.js';
import { applyGroupSizeRule } from './group-size-rule.js';
import { type AuditPool, POOL_COLUMNS, type PoolColumn } from './pool.js';
import { MAPPING_KEY_OF, type PoolColumnMapping } from './pool-columns.js';

/** The largest logit a pool may hold, in size: far beyond any log-odds, far below where x² overflows. */
export const MAX_ABS_LOGIT = 1e6;

/** Options of readPoolFile. */
export interface ReadPoolOptions {
  /**
   * Optional columns that must be present: 'score' for score access, 'logit' for
   * logit access. group, label and decision are always required.
   */
  require?: ReadonlyArray<'score' | 'logit'>;
  /** The file's own column names and group a's value (poolColumnsProperties); absent: the canonical names, groups 0/1.
   * */
  columns?: PoolColumnMapping;
}

/** The file's name of a pool column under the mapping. */
function fileColumnName(column: PoolColumn, mapping: PoolColumnMapping | undefined): string {
  if (column === 'id') return 'id';
  return mapping?.[MAPPING_KEY_OF[column]] ?? column;
}

/** The pool column each file column holds (null: not a pool column), refusing a pool column named twice. */
function columnsOfHeader(
  names: readonly string[],
  mapping: PoolColumnMapping | undefined,
  where: string,
): Array<PoolColumn | null> {
  const byName = new Map(POOL_COLUMNS.map((column) => [fileColumnName(column, mapping), column]));
  const seen = new Set<PoolColumn>();
  return names.map((name) => {
    const column = byName.get(name);
    if (column === undefined) return null;
    if (seen.has(column)) {
      const times = names.filter((other) => other === name).length;
      throw inputError({
        where,
        expected: 'each column named once',
        found: `column "${name}" ${times === 2 ? 'twice' : `${times} times`}`,
      });
    }
    seen.add(column);
    return column;
  });
}

const REQUIRED_COLUMNS: readonly PoolColumn[] = ['group', 'label', 'decision'];

/** The columns an intersection's groups come from (mapping.groups), or null when the pool has one group column. */
function intersectionColumns(mapping: PoolColumnMapping | undefined): string[] | null {
  return mapping?.groups === undefined ? null : mapping.groups.split(',').map((name) => name.trim());
}

/** Builds the pool's columns one value at a time, validating each as it comes. */
class PoolColumnsBuilder {
  readonly columns: Omit<AuditPool, 'size' | 'source'>;
  /** The value of group b once seen, when group a is named by its value. */
  private groupB: string | undefined;
  /** Codes the group column's values, or the intersection's tuples, when group a is not named. */
  readonly groupCoder: GroupCoder | null;

  constructor(
    size: number,
    present: ReadonlySet<PoolColumn>,
    private readonly groupA: string | undefined,
    groupColumns: readonly string[],
    intersection: boolean,
  ) {
    this.columns = {
      group: new Uint8Array(size),
      label: new Uint8Array(size),
      decision: new Uint8Array(size),
      score: present.has('score') ? new Float64Array(size) : null,
      logit: present.has('logit') ? new Float64Array(size) : null,
      id: present.has('id') ? new Int32Array(size) : null,
    };
    this.groupCoder = groupA === undefined ? new GroupCoder(this.columns.group, groupColumns, intersection) : null;
  }

  /** Stores value (already a number, NaN if unreadable) at row, or throws naming where. */
  set(column: PoolColumn, row: number, value: number, found: unknown, where: () => string): void {
    switch (column) {
      case 'group':
        if (this.groupA !== undefined) {
          this.columns.group[row] = this.namedGroup(String(found ?? ''), where);
          return;
        }
        (this.groupCoder as GroupCoder).add(row, [found], where);
        return;
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
            expected:
              `a finite logit of at most ${MAX_ABS_LOGIT} in size (the log-odds of any double ` +
              `probability lie within ±745; larger ones overflow the sums of squares of the logit GLR)`,
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

  /** 0 for group a's value, 1 for the one other value; a third value is refused. */
  private namedGroup(text: string, where: () => string): number {
    const cell = text.trim();
    if (cell === this.groupA) return 0;
    this.groupB ??= cell;
    if (cell === this.groupB) return 1;
    throw inputError({
      where: where(),
      expected: `one of two groups: "${this.groupA}" (group a) and "${this.groupB}" (group b)`,
      found: cell,
    });
  }

  finish(size: number, source: string): AuditPool {
    const groupNames = this.groupCoder?.finish(size);
    return { size, ...this.columns, source, ...(groupNames === undefined ? {} : { groupNames }) };
  }
}

/** The indices of the intersection's columns in the file, refusing one that is missing. */
function intersectionIndices(path: string, names: readonly string[], columns: readonly string[]): number[] {
  return columns.map((column) => {
    const index = names.indexOf(column);
    if (index < 0) {
      throw new InputError(
        `${path}: column "${column}": expected a column "${column}" of the groups (groups, --groups), found the ` +
          `columns ${names.map((each) => describeFound(each)).join(', ')}`,
      );
    }
    return index;
  });
}

/** Refuses groups (an intersection) together with groupColumn or groupA, which name one group column. */
function checkGroupKeys(mapping: PoolColumnMapping | undefined): void {
  if (mapping?.groups === undefined) return;
  const clash = mapping.groupColumn !== undefined ? 'groupColumn' : mapping.groupA !== undefined ? 'groupA' : null;
  if (clash !== null) {
    throw inputError({
      where: `groups (--groups) with ${clash}`,
      expected: 'either groups (the columns of intersectional groups) or groupColumn/groupA (one group column)',
      found: `both: groups "${mapping.groups}" and ${clash} "${mapping[clash]}"`,
    });
  }
}

/** A builder for the mapping: group a named by its value, one group column, or an intersection. */
function newBuilder(size: number, present: ReadonlySet<PoolColumn>, mapping: PoolColumnMapping | undefined) {
  checkGroupKeys(mapping);
  const intersection = intersectionColumns(mapping);
  const groupColumns = intersection ?? [fileColumnName('group', mapping)];
  return new PoolColumnsBuilder(size, present, mapping?.groupA, groupColumns, intersection !== null);
}

/** Refuses a file without a needed column, naming the column, the key that renames it and every column found. */
function checkColumns(
  path: string,
  present: ReadonlySet<PoolColumn>,
  names: readonly string[],
  options: ReadPoolOptions | undefined,
): void {
  const required = options?.columns?.groups === undefined ? REQUIRED_COLUMNS : REQUIRED_COLUMNS.slice(1);
  const needed = [...required, ...(options?.require ?? [])];
  for (const column of needed) {
    if (present.has(column)) continue;
    const name = fileColumnName(column, options?.columns);
    const key = MAPPING_KEY_OF[column as keyof typeof MAPPING_KEY_OF];
    const flag = `--${column}-column`;
    const found =
      names.length === 0 ? 'no columns' : `the columns ${names.map((each) => describeFound(each)).join(', ')}`;
    throw new InputError(
      `${path}: column "${name}": expected a column "${name}" holding the ${column} (or name the file's column ` +
        `with ${key}, ${flag} on the command line), found ${found}`,
    );
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

/** Calls onRecord with each CSV record of text (RFC 4180: src/util/csv-reader.ts); its return value selects columns as
 * CsvReader's handler does. */
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
  let intersection: number[] = [];
  const groupColumns = intersectionColumns(options?.columns);
  let row = -1;
  eachCsvRecord(path, text, ({ fields, line }) => {
    if (row < 0) {
      header = fields.map((name) => name.trim());
      columnOf = columnsOfHeader(header, options?.columns, `${path}: line ${line}`);
      if (groupColumns !== null) {
        columnOf = columnOf.map((column) => (column === 'group' ? null : column));
        intersection = intersectionIndices(path, header, groupColumns);
      }
      const present = new Set(columnOf.filter((column) => column !== null));
      checkColumns(path, present, header, options);
      builder = newBuilder(size, present, options?.columns);
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
        () => `${path}: row ${at + 1} (line ${line}), column "${header[c]}"`,
      );
    }
    if (groupColumns !== null) {
      const cells = intersection.map((c) => fields[c]);
      const at = row;
      (builder as PoolColumnsBuilder).groupCoder?.add(
        at,
        cells,
        (part) => `${path}: row ${at + 1} (line ${line}), column "${groupColumns[part]}"`,
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
  const vectors = new Map<PoolColumn, Vector>();
  // getChild() returns the first of two columns of one name: two decision columns that
  // disagree would be read as the first one silently (the CSV reader refuses them).
  const names = table.schema.fields.map((field) => field.name);
  const columnOf = columnsOfHeader(names, options?.columns, `${path}: schema`);
  columnOf.forEach((column, index) => {
    if (column !== null) vectors.set(column, table.getChildAt(index) as Vector);
  });
  const groupColumns = intersectionColumns(options?.columns);
  if (groupColumns !== null) vectors.delete('group');
  const present = new Set(vectors.keys());
  checkColumns(path, present, names, options);
  const size = table.numRows;
  const builder = newBuilder(size, present, options?.columns);
  if (groupColumns !== null) {
    const parts = intersectionIndices(path, names, groupColumns).map(
      (index) => (table.getChildAt(index) as Vector).toArray() as ArrayLike<unknown>,
    );
    for (let row = 0; row < size; row++) {
      builder.groupCoder?.add(
        row,
        parts.map((values) => values[row]),
        (part) => `${path}: row ${row + 1}, column "${groupColumns[part]}"`,
      );
    }
  }
  for (const [column, vector] of vectors) {
    const name = fileColumnName(column, options?.columns);
    const values = vector.toArray() as ArrayLike<number | bigint | boolean | string | null>;
    for (let row = 0; row < size; row++) {
      const raw = vector.nullCount > 0 && !vector.isValid(row) ? null : values[row];
      // A text (utf8) column must hold decimals: Number('') and Number(' ') are 0.
      const value =
        raw === null || raw === undefined || (typeof raw === 'string' && !DECIMAL_NUMBER.test(raw.trim()))
          ? Number.NaN
          : Number(raw);
      builder.set(column, row, value, raw, () => `${path}: row ${row + 1}, column "${name}"`);
    }
  }
  return builder.finish(size, path);
}

/**
 * readPoolFile(path, options) reads an audit pool from an Arrow IPC file (`.arrow`,
 * `.feather`, `.ipc`) or a CSV file (anything else) whose columns are named
 * id, group, label, decision, score, logit (id, score and logit optional unless
 * `options.require` names them; other columns are ignored), or named otherwise by
 * `options.columns` (its groupA names group a by its value, e.g. "Female", the other
 * value being group b). A group column of 0 and 1 is a two-group pool as before; one of
 * other integers or names gives one group per value, named (pool.groupNames, GroupCoder);
 * `columns.groups` ("sex,race") makes the groups the combinations of several columns;
 * `columns.minGroupSize` / `minGroupShare` exclude small groups (applyGroupSizeRule).
 * Validates every cell: group an integer or a name; label, decision in {0, 1}; score in [0, 1]; logit
 * finite; id a 32-bit integer; no missing values.
 * Runs in O(rows x columns).
 * Throws InputError naming the file, row and column of the first bad cell, the
 * missing or doubled column, or a file larger than MAX_POOL_FILE_BYTES (500 MiB).
 * @param path an .arrow (IPC) file or a CSV file with group,label,decision[,score,logit]
 * @param options the pool's own column names and group values, when they differ from fairaudit's
 * @returns the pool, its columns as typed arrays
 * @example
 * const pool = readPoolFile('outputs.csv');
 */
export function readPoolFile(path: string, options?: ReadPoolOptions): AuditPool {
  const bytes = readFileBytes(path);
  const pool = /\.(arrow|feather|ipc|arrows)$/i.test(path)
    ? readPoolArrow(path, bytes, options)
    : readPoolCsv(path, bytes.toString('utf8'), options);
  const { minGroupSize, minGroupShare } = options?.columns ?? {};
  if (minGroupSize === undefined && minGroupShare === undefined) return pool;
  return applyGroupSizeRule(pool, { minGroupSize, minGroupShare });
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
 * @param path the Arrow file to write (written to a temporary name, then renamed)
 * @param pool the pool to write
 * @example
 * writePoolFile('outputs.arrow', readPoolFile('outputs.csv'));
 */
export function writePoolFile(path: string, pool: AuditPool): void {
  writeFileAtomic(path, poolToArrowBytes(pool));
}

import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { inputError } from '../util/errors.js';

/** One parsed CSV record: its fields and the 1-based line on which it starts. */
export interface CsvRecord {
  /** The record's fields; after a column selection, unselected fields may read as "". */
  readonly fields: string[];
  readonly line: number;
}

/**
 * Called with each record. Returning a list of column positions (typically after the
 * header) tells the reader that only those fields are needed from then on: the others
 * are left empty, which saves making hundreds of strings per row of a wide file.
 */
export type CsvRecordHandler = (record: CsvRecord) => unknown;

export interface CsvOptions {
  /** The file's path, for error messages. */
  readonly file: string;
  /** The field separator, one character (default ","). */
  readonly separator?: string;
  /** Trim blanks around unquoted fields (Adult writes "39, State-gov"). */
  readonly trimFields?: boolean;
}

/**
 * An incremental CSV parser (RFC 4180 plus the forms real exports take): quoted fields
 * with doubled quotes, separators and line breaks inside quotes, LF, CRLF or CR line
 * ends, a UTF-8 byte-order mark at the start, and blank lines (skipped). Text is pushed
 * in chunks of any size, so a file of any length streams through in O(length) time and
 * O(longest record) memory. Lines without a quote or a bare carriage return take a fast
 * path (split at the separator); the others go through the character state machine.
 *
 * Throws InputError (naming the file and line) when a quote closes in the middle of a
 * field or when the text ends inside a quoted field (a truncated file).
 */
export class CsvReader {
  private readonly separator: number;
  private readonly trimFields: boolean;
  private fields: string[] = [];
  private field = '';
  private inQuotes = false;
  /** The previous character closed a quoted field (so only a separator or line end may follow). */
  private afterQuote = false;
  private fieldWasQuoted = false;
  private atStart = true;
  private previousWasCarriageReturn = false;
  private line = 1;
  private recordLine = 1;
  /** Text after the last line feed, held until the rest of its line arrives (fast path only). */
  private pending = '';
  private readonly separatorText: string;
  /** Columns to materialize (1 = keep) on the fast path, or null for all. */
  private selection: Uint8Array | null = null;

  constructor(
    private readonly options: CsvOptions,
    private readonly handler: CsvRecordHandler,
  ) {
    const separator = options.separator ?? ',';
    if (separator.length !== 1) throw new Error('CsvReader: the separator must be one character');
    this.separator = separator.charCodeAt(0);
    this.separatorText = separator;
    this.trimFields = options.trimFields ?? false;
  }

  /** Parses the next chunk of text. */
  push(chunk: string): void {
    if (this.atStart) {
      if (chunk.length === 0) return;
      if (chunk.charCodeAt(0) === 0xfeff) chunk = chunk.slice(1);
      this.atStart = false;
    }
    const text = this.pending.length > 0 ? this.pending + chunk : chunk;
    this.pending = '';
    this.consume(text, false);
  }

  /** True between records with nothing of the next one seen (the fast path may run). */
  private isIdle(): boolean {
    return (
      this.fields.length === 0 && this.field.length === 0 && !this.inQuotes && !this.afterQuote && !this.fieldWasQuoted
    );
  }

  /**
   * Emits whole unquoted lines directly; hands the rest of the text to the state machine
   * from the first line with a quote or a bare carriage return. Unless `final`, an
   * unfinished last line waits in `pending`.
   */
  private consume(text: string, final: boolean): void {
    let position = 0;
    if (this.previousWasCarriageReturn && this.isIdle()) {
      if (text.charCodeAt(0) === 10) position = 1; // the line feed of a CRLF split across chunks
      this.previousWasCarriageReturn = false;
    }
    while (this.isIdle() && position < text.length) {
      const newline = text.indexOf('\n', position);
      if (newline < 0 && !final) {
        this.pending = text.slice(position);
        return;
      }
      const end = newline < 0 ? text.length : newline;
      const stop = end > position && text.charCodeAt(end - 1) === 13 ? end - 1 : end;
      const line = text.slice(position, stop);
      if (line.includes('"') || line.includes('\r')) break;
      if (line.length > 0) {
        const fields = this.selection === null ? line.split(this.separatorText) : this.selectedFields(line);
        if (this.trimFields) for (let k = 0; k < fields.length; k++) fields[k] = fields[k].trim();
        this.onRecord({ fields, line: this.line });
      }
      this.line++;
      this.recordLine = this.line;
      position = end + 1;
    }
    if (position < text.length) this.pushCharacters(text, position);
  }

  private onRecord(record: CsvRecord): void {
    const selected = this.handler(record);
    if (Array.isArray(selected) && selected.every((column) => Number.isInteger(column) && column >= 0)) {
      const mask = new Uint8Array(Math.max(0, ...selected) + 1);
      for (const column of selected) mask[column] = 1;
      this.selection = mask;
    }
  }

  /** Splits an unquoted line, making strings only for the selected columns. */
  private selectedFields(line: string): string[] {
    const selection = this.selection as Uint8Array;
    const fields: string[] = [];
    let start = 0;
    for (let column = 0; ; column++) {
      const next = line.indexOf(this.separatorText, start);
      const end = next < 0 ? line.length : next;
      fields.push(column < selection.length && selection[column] === 1 ? line.slice(start, end) : '');
      if (next < 0) return fields;
      start = next + 1;
    }
  }

  /** The character state machine over text[start..]. */
  private pushCharacters(chunk: string, start: number): void {
    const separator = this.separator;
    let runStart = start;
    for (let i = start; i < chunk.length; i++) {
      const code = chunk.charCodeAt(i);
      if (this.inQuotes) {
        if (code === 34) {
          this.field += chunk.slice(runStart, i);
          // A quote inside quotes either doubles (an escaped quote) or closes the field;
          // which one depends on the next character, possibly in the next chunk.
          this.inQuotes = false;
          this.afterQuote = true;
          runStart = i + 1;
        } else if (code === 10) {
          if (!this.previousWasCarriageReturn) this.line++;
          this.previousWasCarriageReturn = false;
        } else if (code === 13) {
          this.line++;
          this.previousWasCarriageReturn = true;
        } else {
          this.previousWasCarriageReturn = false;
        }
        continue;
      }
      if (this.afterQuote && code === 34) {
        // A doubled quote: a literal quote, and the field stays quoted.
        this.field += '"';
        this.inQuotes = true;
        this.afterQuote = false;
        runStart = i + 1;
        continue;
      }
      if (code === separator) {
        this.field += chunk.slice(runStart, i);
        this.endField();
        runStart = i + 1;
        this.previousWasCarriageReturn = false;
      } else if (code === 10 || code === 13) {
        const isLineFeedAfterReturn = code === 10 && this.previousWasCarriageReturn;
        this.previousWasCarriageReturn = code === 13;
        if (isLineFeedAfterReturn) {
          runStart = i + 1;
          continue;
        }
        this.field += chunk.slice(runStart, i);
        this.endRecord();
        this.line++;
        this.recordLine = this.line;
        runStart = i + 1;
      } else if (code === 34 && this.field.length === 0 && i === runStart) {
        this.inQuotes = true;
        this.fieldWasQuoted = true;
        this.previousWasCarriageReturn = false;
        runStart = i + 1;
      } else {
        this.previousWasCarriageReturn = false;
        if (this.afterQuote) {
          if (!(this.trimFields && (code === 32 || code === 9))) {
            throw inputError({
              where: `${this.options.file}: line ${this.line}`,
              expected: 'a separator or a line end after a closing quote',
              found: chunk.slice(i, i + 20),
            });
          }
          runStart = i + 1; // blanks after a closing quote are dropped
        }
      }
    }
    if (!this.afterQuote) this.field += chunk.slice(runStart);
  }

  /** Ends the input: emits the last record (a file need not end with a line break). */
  end(): void {
    if (this.pending.length > 0) {
      const text = this.pending;
      this.pending = '';
      this.consume(text, true);
    }
    if (this.inQuotes) {
      throw inputError({
        where: `${this.options.file}: line ${this.recordLine}`,
        expected: 'a closing quote before the end of the file (is the file truncated?)',
        found: `end of file inside a quoted field (${this.field.slice(0, 30)}...)`,
      });
    }
    this.endRecord();
  }

  private endField(): void {
    const value = this.trimFields && !this.fieldWasQuoted ? this.field.trim() : this.field;
    this.fields.push(value);
    this.field = '';
    this.afterQuote = false;
    this.fieldWasQuoted = false;
  }

  private endRecord(): void {
    if (this.fields.length === 0 && this.field.length === 0 && !this.fieldWasQuoted && !this.afterQuote) {
      return; // a blank line
    }
    this.endField();
    const fields = this.fields;
    this.fields = [];
    this.onRecord({ fields, line: this.recordLine });
  }
}

/** parseCsvText(text, options) parses a whole CSV text into records. O(length of text). */
export function parseCsvText(text: string, options: CsvOptions): CsvRecord[] {
  const records: CsvRecord[] = [];
  const reader = new CsvReader(options, (record) => {
    records.push(record);
  });
  reader.push(text);
  reader.end();
  return records;
}

/**
 * readCsvStream(stream, onRecord, options) parses a stream of UTF-8 text (a file, or a
 * zip or gzip entry being inflated) through CsvReader, calling onRecord for each record
 * in order. O(length) time, O(longest record) memory.
 * Throws InputError for malformed text (see CsvReader).
 */
export async function readCsvStream(stream: Readable, onRecord: CsvRecordHandler, options: CsvOptions): Promise<void> {
  const reader = new CsvReader(options, onRecord);
  stream.setEncoding('utf8');
  for await (const chunk of stream) reader.push(chunk as string);
  reader.end();
}

/**
 * readCsvFile(path, onRecord, options) streams a UTF-8 CSV file through CsvReader,
 * so files larger than memory work. O(file size) time.
 * Throws InputError for malformed text (see CsvReader).
 */
export async function readCsvFile(
  path: string,
  onRecord: CsvRecordHandler,
  options: Omit<CsvOptions, 'file'> & { file?: string } = {},
): Promise<void> {
  await readCsvStream(createReadStream(path, { highWaterMark: 1 << 20 }), onRecord, {
    ...options,
    file: options.file ?? path,
  });
}

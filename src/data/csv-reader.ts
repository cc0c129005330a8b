import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { inputError } from '../util/errors.js';

/** One parsed CSV record: its fields and the 1-based line on which it starts. */
export interface CsvRecord {
  readonly fields: string[];
  readonly line: number;
}

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
 * O(longest record) memory.
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

  constructor(
    private readonly options: CsvOptions,
    private readonly onRecord: (record: CsvRecord) => void,
  ) {
    const separator = options.separator ?? ',';
    if (separator.length !== 1) throw new Error('CsvReader: the separator must be one character');
    this.separator = separator.charCodeAt(0);
    this.trimFields = options.trimFields ?? false;
  }

  /** Parses the next chunk of text. */
  push(chunk: string): void {
    let start = 0;
    if (this.atStart) {
      if (chunk.length === 0) return;
      if (chunk.charCodeAt(0) === 0xfeff) start = 1;
      this.atStart = false;
    }
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
  const reader = new CsvReader(options, (record) => records.push(record));
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
export async function readCsvStream(
  stream: Readable,
  onRecord: (record: CsvRecord) => void,
  options: CsvOptions,
): Promise<void> {
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
  onRecord: (record: CsvRecord) => void,
  options: Omit<CsvOptions, 'file'> & { file?: string } = {},
): Promise<void> {
  await readCsvStream(createReadStream(path, { highWaterMark: 1 << 20 }), onRecord, { ...options, file: options.file ?? path });
}

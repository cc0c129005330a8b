import { describe, expect, it } from 'vitest';
import { CsvReader, type CsvRecord, parseCsvText } from '../../src/util/csv-reader.js';
import { InputError } from '../../src/util/errors.js';

const fields = (text: string, options: { trimFields?: boolean; separator?: string } = {}) =>
  parseCsvText(text, { file: 'test.csv', ...options }).map((record) => record.fields);

describe('parseCsvText(text, options)', () => {
  it('parseCsvText("") returns no records', () => {
    expect(fields('')).toEqual([]);
  });

  it('parseCsvText(text) reads LF, CRLF and CR line ends and a last line without a line end', () => {
    expect(fields('a,b\n1,2\n')).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
    expect(fields('a,b\r\n1,2')).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
    expect(fields('a,b\r1,2\r')).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
  });

  it('parseCsvText(text) drops a UTF-8 byte-order mark and skips blank lines', () => {
    expect(fields('\uFEFF,X1,Y\r\n\r\n1,2,3\r\n')).toEqual([
      ['', 'X1', 'Y'],
      ['1', '2', '3'],
    ]);
  });

  it('parseCsvText(text) keeps separators, line breaks and doubled quotes inside quoted fields', () => {
    expect(fields('id,desc\n1,"Possession, of ""Cocaine"""\n2,"two\r\nlines"\n')).toEqual([
      ['id', 'desc'],
      ['1', 'Possession, of "Cocaine"'],
      ['2', 'two\r\nlines'],
    ]);
  });

  it('parseCsvText(text) keeps empty fields, quoted or not', () => {
    expect(fields('a,,"",b\n')).toEqual([['a', '', '', 'b']]);
  });

  it('parseCsvText(text, {trimFields}) trims Adult\'s ", " separators', () => {
    expect(fields('39, State-gov, 77516, <=50K\n\n', { trimFields: true })).toEqual([
      ['39', 'State-gov', '77516', '<=50K'],
    ]);
  });

  it('parseCsvText(text) numbers records by the line they start on', () => {
    const records = parseCsvText('h\n\n"a\nb"\nc\n', { file: 'f.csv' });
    expect(records.map((record) => record.line)).toEqual([1, 3, 5]);
  });

  it(
    'parseCsvText(text) throws InputError naming file and line for a quote that never closes (a truncated ' + 'file)',
    () => {
      expect(() => parseCsvText('a,b\n1,"unfinished\n', { file: 'cut.csv' })).toThrow(InputError);
      expect(() => parseCsvText('a,b\n1,"unfinished\n', { file: 'cut.csv' })).toThrow(
        /cut\.csv: line 2.*closing quote/,
      );
    },
  );

  it('parseCsvText(text) throws InputError for text after a closing quote', () => {
    expect(() => parseCsvText('"a"b,c\n', { file: 'bad.csv' })).toThrow(/bad\.csv: line 1/);
  });
});

describe('CsvReader.push(chunk)', () => {
  it('CsvReader gives the same records and line numbers whatever the chunk boundaries', () => {
    const text = '\uFEFFa,"b ""q"", c"\r\n1,"x\r\ny"\r\n2,3\r\n\r\nplain,line\nold\rmac\r"q\n",z\n4,5';
    const whole = parseCsvText(text, { file: 'whole.csv' });
    expect(whole.map((record) => record.fields)).toEqual([
      ['a', 'b "q", c'],
      ['1', 'x\r\ny'],
      ['2', '3'],
      ['plain', 'line'],
      ['old'],
      ['mac'],
      ['q\n', 'z'],
      ['4', '5'],
    ]);
    expect(whole.map((record) => record.line)).toEqual([1, 2, 4, 6, 7, 8, 9, 11]);
    for (let size = 1; size <= 13; size++) {
      const records: CsvRecord[] = [];
      const reader = new CsvReader({ file: 'chunks.csv' }, (record) => records.push(record));
      for (let i = 0; i < text.length; i += size) reader.push(text.slice(i, i + size));
      reader.end();
      expect(records).toEqual(whole);
    }
  });

  it('CsvReader keeps only the columns a handler selects, with the field count intact', () => {
    const records: CsvRecord[] = [];
    const reader = new CsvReader({ file: 'wide.csv' }, (record) => {
      records.push(record);
      return records.length === 1 ? [0, 2] : undefined;
    });
    reader.push('a,b,c,d\n1,2,3,4\n5,6,7\n');
    reader.end();
    expect(records.map((record) => record.fields)).toEqual([
      ['a', 'b', 'c', 'd'],
      ['1', '', '3', ''],
      ['5', '', '7'],
    ]);
  });
});

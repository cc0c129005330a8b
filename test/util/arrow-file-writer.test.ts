import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RecordBatch, Table, tableFromIPC, tableToIPC } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { encodeResultTable, type ResultColumn } from '../../src/harness/results-table.js';
import { type ArrowColumnSpec, ArrowFileWriter } from '../../src/util/arrow-file-writer.js';
import { sha256Hex } from '../../src/util/sha256.js';
import { temporaryFolder } from '../helpers/temporary-folder.js';

const columns: ArrowColumnSpec[] = [
  { name: 'cell', type: 'utf8' },
  { name: 'replicate', type: 'int32' },
  { name: 'statistic', type: 'float64' },
  { name: 'flag', type: 'bool' },
  { name: 'decision', type: 'utf8' },
];
const metadata = new Map([['fairaudit.experiment', 'writer-test']]);
const decisions = ['reject', 'accept', 'inconclusive', 'é≠'];

/** Rows first..first+rows-1 of a test table, column-major. */
function rowsOf(first: number, rows: number) {
  const replicate = new Int32Array(rows);
  const statistic = new Float64Array(rows);
  const flag = new Uint8Array(rows);
  const indices = new Int32Array(rows);
  const cell: string[] = [];
  for (let i = 0; i < rows; i++) {
    const r = first + i;
    replicate[i] = r;
    statistic[i] = r === 3 ? Number.NaN : Math.sin(r) * 1e3;
    flag[i] = r % 3 === 0 ? 1 : 0;
    indices[i] = r % decisions.length;
    cell.push(`{"pool":"p${r % 7}"}`);
  }
  return { cell, replicate, statistic, flag, decision: { indices, dictionary: decisions } };
}

describe('ArrowFileWriter(path, columns, metadata)', () => {
  it('writes, in batches of 1000, a file that reads back to every value, with the SHA-256 of its bytes', () => {
    const folder = temporaryFolder('fairaudit-arrow-writer-');
    const path = join(folder, 'results.arrow');
    const writer = new ArrowFileWriter(path, columns, metadata);
    for (let first = 0; first < 3500; first += 1000)
      writer.writeBatch(rowsOf(first, Math.min(1000, 3500 - first)), Math.min(1000, 3500 - first));
    const summary = writer.close();
    const bytes = readFileSync(path);
    expect(summary).toEqual({ path, rows: 3500, batches: 4, bytes: bytes.length, sha256: sha256Hex(bytes) });
    expect(readdirSync(folder)).toEqual(['results.arrow']);
    const table = tableFromIPC(bytes);
    expect(table.numRows).toBe(3500);
    expect(table.batches.map((batch) => batch.numRows)).toEqual([1000, 1000, 1000, 500]);
    expect(table.schema.metadata.get('fairaudit.experiment')).toBe('writer-test');
    const all = rowsOf(0, 3500);
    for (const row of [0, 3, 999, 1000, 2501, 3499]) {
      expect(table.getChild('cell')?.get(row)).toBe(all.cell[row]);
      expect(table.getChild('replicate')?.get(row)).toBe(row);
      expect(Object.is(table.getChild('statistic')?.get(row), all.statistic[row])).toBe(true);
      expect(table.getChild('flag')?.get(row)).toBe(all.flag[row] === 1);
      expect(table.getChild('decision')?.get(row)).toBe(decisions[row % 4]);
    }
  });

  it('writes exactly the bytes tableToIPC writes for the same batches (one writer, no collected copy)', () => {
    const folder = temporaryFolder('fairaudit-arrow-writer-');
    const path = join(folder, 'streamed.arrow');
    const writer = new ArrowFileWriter(path, columns, metadata);
    writer.writeBatch(rowsOf(0, 700), 700);
    writer.writeBatch(rowsOf(700, 300), 300);
    writer.close();
    const table = tableFromIPC(readFileSync(path));
    const rebuilt = new Table(
      table.schema,
      table.batches.map((batch) => new RecordBatch(table.schema, batch.data)),
    );
    expect(Buffer.from(tableToIPC(rebuilt, 'file')).equals(readFileSync(path))).toBe(true);
  });

  it(
    'with one batch writes the bytes of encodeResultTable (the results.arrow of today), so the format is ' +
      'unchanged',
    () => {
      const folder = temporaryFolder('fairaudit-arrow-writer-');
      const path = join(folder, 'one-batch.arrow');
      const resultColumns: ResultColumn[] = columns.map((column) => ({ name: column.name, type: column.type }));
      const rows = rowsOf(0, 500);
      const writer = new ArrowFileWriter(path, columns, metadata);
      writer.writeBatch(rows, 500);
      writer.close();
      const expected = encodeResultTable(
        resultColumns,
        {
          cell: rows.cell,
          replicate: [...rows.replicate],
          statistic: [...rows.statistic],
          flag: [...rows.flag].map((value) => value === 1),
          decision: [...rows.decision.indices].map((index) => decisions[index]),
        },
        metadata,
      );
      expect(readFileSync(path).equals(Buffer.from(expected))).toBe(true);
    },
  );

  it('writes an empty table when closed without a batch, and abort() leaves no file', () => {
    const folder = temporaryFolder('fairaudit-arrow-writer-');
    const empty = new ArrowFileWriter(join(folder, 'empty.arrow'), columns).close();
    expect(tableFromIPC(readFileSync(empty.path)).numRows).toBe(0);
    const aborted = new ArrowFileWriter(join(folder, 'aborted.arrow'), columns);
    aborted.writeBatch(rowsOf(0, 10), 10);
    aborted.abort();
    aborted.abort();
    expect(existsSync(join(folder, 'aborted.arrow'))).toBe(false);
    expect(readdirSync(folder)).toEqual(['empty.arrow']);
  });

  it('refuses a batch with a missing column or a column of the wrong length', () => {
    const folder = temporaryFolder('fairaudit-arrow-writer-');
    const writer = new ArrowFileWriter(join(folder, 'bad.arrow'), columns);
    const { decision: _decision, ...missing } = rowsOf(0, 5);
    expect(() => writer.writeBatch(missing, 5)).toThrow('ArrowFileWriter: the batch has no column decision');
    expect(() => writer.writeBatch(rowsOf(0, 5), 6)).toThrow('ArrowFileWriter: column cell has 5 values, expected 6');
    writer.abort();
  });
});

import { makeVector, Schema, Table, tableToIPC, Utf8, vectorFromArray } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { decodeResultTable, encodeResultTable } from '../../src/harness/results-table.js';

describe('encodeResultTable(columns, data, metadata)', () => {
  it("writes utf8 columns with the bytes of apache-arrow's own builder (vectorFromArray)", () => {
    // Repeated, empty, multi-byte and astral-plane strings, and lengths that do not fill 8 bytes.
    const text = ['reject', 'accept', '', 'δ = 0.05', 'reject', '🙂 ok', 'x', 'accept', 'ünïcödé'];
    const numbers = text.map((_, i) => i * 3 - 4);
    const metadata = new Map([['fairaudit.experiment', 'check']]);
    const ours = encodeResultTable(
      [
        { name: 'decision', type: 'utf8' },
        { name: 'queries', type: 'int32' },
      ],
      { decision: text, queries: numbers },
      metadata,
    );
    const table = new Table({
      decision: vectorFromArray(text, new Utf8()),
      queries: makeVector(Int32Array.from(numbers)),
    });
    const reference = tableToIPC(new Table(new Schema(table.schema.fields, metadata), table.batches), 'file');
    expect(Buffer.from(ours).equals(Buffer.from(reference))).toBe(true);
    expect(decodeResultTable(ours, 'ours').data.decision).toEqual(text);
  });
});

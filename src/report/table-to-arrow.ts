import { Float64, Table, tableToIPC, Utf8, type Vector, vectorFromArray } from 'apache-arrow';
import type { SummaryTable } from './summary-table.js';

/**
 * tableToArrow(table) builds an Arrow IPC file (the random-access format that
 * tableFromIPC and pyarrow.ipc.open_file read): 'number' columns as float64 (NaN
 * kept, null for missing), 'string' columns as utf8. O(rows × columns).
 */
export function tableToArrow(table: SummaryTable): Uint8Array {
  const vectors: Record<string, Vector<Float64> | Vector<Utf8>> = {};
  for (const column of table.columns) {
    const values = table.rows.map((row) => {
      const value = row[column.name];
      if (value === null || value === undefined) return null;
      return column.type === 'number' ? (typeof value === 'number' ? value : Number(value)) : String(value);
    });
    vectors[column.name] =
      column.type === 'number'
        ? vectorFromArray(values as Array<number | null>, new Float64())
        : vectorFromArray(values as Array<string | null>, new Utf8());
  }
  return tableToIPC(new Table(vectors), 'file');
}

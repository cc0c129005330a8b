import { type CheckedResults, openResults } from '../../harness/results-reader.js';
import type { RecordedColumn } from '../../harness/run-record.js';

/** One cell of a run as the comparison reads it: replicate seeds and each outcome's values, by replicate index. */
export interface CellSample {
  seeds: string[];
  values: Map<string, Array<number | string>>;
}

/** A run read for comparison: its checked results, the outcome columns compared, and its cells by key. */
export interface RunSamples {
  results: CheckedResults;
  /** Outcome columns (not the experiment, kind, cell, grid, replicate or seed columns). */
  outcomes: RecordedColumn[];
  cells: Map<string, CellSample>;
}

const layoutColumns = new Set(['experiment', 'kind', 'cell', 'replicate', 'seed']);

/**
 * readRunSamples(folder) opens a results folder (openResults: run.json and the SHA-256
 * of results.arrow checked, every row checked against the plan) and gathers each cell's
 * replicate seeds and outcome values. Throws InputError naming the file. Memory: O(rows
 * × outcome columns).
 */
export async function readRunSamples(folder: string): Promise<RunSamples> {
  const results = await openResults(folder);
  const grid = new Set((results.record.plan.gridColumns ?? []).map((column) => column.column));
  const outcomes = results.record.columns.filter((column) => !layoutColumns.has(column.name) && !grid.has(column.name));
  const cells = new Map<string, CellSample>();
  for await (const batch of results.batches()) {
    const keys = batch.columns.cell as readonly string[];
    const replicates = batch.columns.replicate as Int32Array;
    const seeds = batch.columns.seed as readonly string[];
    for (let row = 0; row < batch.rows; row++) {
      let cell = cells.get(keys[row]);
      if (cell === undefined) {
        cell = { seeds: [], values: new Map(outcomes.map((column) => [column.name, []])) };
        cells.set(keys[row], cell);
      }
      const replicate = replicates[row];
      cell.seeds[replicate] = seeds[row];
      for (const column of outcomes) {
        (cell.values.get(column.name) as Array<number | string>)[replicate] = batch.columns[column.name][row];
      }
    }
  }
  return { results, outcomes, cells };
}

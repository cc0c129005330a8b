import type { ColumnValue, KindRunner } from './kind-runner.js';
import { type Plan, type PlanChunk, replicateSeed } from './plan.js';
import type { ColumnData, ResultColumn } from './results-table.js';

/**
 * resultColumns(plan, kind) lists the columns of results.arrow in order: experiment,
 * kind, cell, one per grid setting, replicate, seed, then the kind's outcome columns
 * (docs/contracts.md, "Results of a run").
 */
export function resultColumns(plan: Plan, kind: Pick<KindRunner, 'outcomeColumns'>): ResultColumn[] {
  return [
    { name: 'experiment', type: 'utf8' },
    { name: 'kind', type: 'utf8' },
    { name: 'cell', type: 'utf8' },
    ...plan.gridColumns.map((column) => ({ name: column.column, type: column.type })),
    { name: 'replicate', type: 'int32' },
    { name: 'seed', type: 'utf8' },
    ...kind.outcomeColumns.map((column) => ({ name: column.name, type: column.type })),
  ];
}

/** The schema metadata of results.arrow: what identifies the plan, nothing that varies between runs. */
export function resultMetadata(plan: Plan): Map<string, string> {
  return new Map([
    ['fairaudit.experiment', plan.experiment],
    ['fairaudit.kind', plan.kind],
    ['fairaudit.fingerprint', plan.fingerprint],
  ]);
}

/**
 * assembleResults(plan, kind, chunks, outcomesOf, seedsOf) lays out the rows of the
 * given chunks in canonical order (chunks in plan order: cells in plan order, then
 * replicate index), adding the plan's columns to each chunk's outcome columns. The
 * seed column comes from seedsOf(chunk) when given (the seeds a worker used), else
 * from replicateSeed. O(rows × columns).
 */
export function assembleResults(
  plan: Plan,
  kind: KindRunner,
  chunks: readonly PlanChunk[],
  outcomesOf: (chunk: PlanChunk) => ColumnData,
  seedsOf?: (chunk: PlanChunk) => readonly string[],
): ColumnData {
  const columns = resultColumns(plan, kind);
  const data: ColumnData = {};
  for (const column of columns) data[column.name] = [];
  const ordered = [...chunks].sort((a, b) => a.index - b.index);
  for (const chunk of ordered) {
    const cell = plan.cells[chunk.cell];
    const outcomes = outcomesOf(chunk);
    const seeds = seedsOf?.(chunk);
    for (let i = 0; i < chunk.count; i++) {
      const replicate = chunk.firstReplicate + i;
      data.experiment.push(plan.experiment);
      data.kind.push(plan.kind);
      data.cell.push(cell.key);
      for (const column of plan.gridColumns) data[column.column].push(cell.columns[column.column] as ColumnValue);
      data.replicate.push(replicate);
      data.seed.push(seeds ? seeds[i] : replicateSeed(plan.seed, cell.key, replicate));
      for (const column of kind.outcomeColumns) data[column.name].push(outcomes[column.name][i]);
    }
  }
  return data;
}

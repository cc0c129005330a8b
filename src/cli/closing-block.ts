import { dirname, resolve } from 'node:path';
import type { ReproductionResult } from '../../papers/reproduction.js';
import { countsSentence } from '../report/reproduction-status.js';
import { writeReproductionRecord, writeResultsIndex } from '../report/results-index.js';

/**
 * recordReproduction(result, title) leaves <out>/reproduction.json for the index:
 * its cells' statuses, its reports and the tables it has nothing to compare with.
 */
export function recordReproduction(result: ReproductionResult, title: string): void {
  writeReproductionRecord(resolve(result.outDirectory), {
    name: result.name,
    title,
    reports: result.reports,
    cells: result.cells,
    uncompared: result.uncompared ?? [],
  });
}

/**
 * closingBlock(results, root) writes <root>/index.html from every reproduction record
 * there and returns the console's closing block: one line per published table with its
 * status (the index's rows), the total in the sentence every surface prints, and where
 * the index is.
 */
export function closingBlock(results: readonly ReproductionResult[], root?: string): string[] {
  const folder = resolve(root ?? dirname(resolve(results[0]?.outDirectory ?? 'results/x')));
  const index = writeResultsIndex(folder);
  const lines = ['', 'Published tables:'];
  const width = Math.max(...index.rows.map((row) => `${row.reproduction} ${row.table}`.length), 0);
  for (const row of index.rows) lines.push(`  ${`${row.reproduction} ${row.table}`.padEnd(width)}  ${row.status}`);
  lines.push(`  total: ${countsSentence(index.counts)}`, `  index: ${index.path}`);
  return lines;
}

import { join } from 'node:path';
import { writeFileAtomic } from '../util/atomic-write.js';
import type { SummaryTable } from './summary-table.js';
import { tableToArrow } from './table-to-arrow.js';
import { tableToCsv } from './table-to-csv.js';
import { tableToMarkdown } from './table-to-markdown.js';

/**
 * writeTable(folder, table) writes <folder>/<id>.arrow, .csv and .md atomically and
 * returns the three paths. O(rows × columns).
 */
export function writeTable(folder: string, table: SummaryTable): string[] {
  const base = join(folder, table.id);
  const paths = [`${base}.arrow`, `${base}.csv`, `${base}.md`];
  writeFileAtomic(paths[0], tableToArrow(table));
  writeFileAtomic(paths[1], tableToCsv(table));
  writeFileAtomic(paths[2], tableToMarkdown(table));
  return paths;
}

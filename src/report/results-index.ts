import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { writeFileAtomic } from '../util/atomic-write.js';
import { inputError } from '../util/errors.js';
import {
  type CellStatus,
  countStatuses,
  countsSentence,
  REPRODUCTION_STATUSES,
  type ReproductionCounts,
  type ReproductionStatus,
  STATUS_STYLE,
  statusClass,
} from './reproduction-status.js';
import { escapeHtml } from './table-to-html.js';

/** The file each reproduction leaves in its folder for the index: reproduction.json. */
export const REPRODUCTION_RECORD_FILE = 'reproduction.json';

/** What one reproduction (`reproduce paper-a`) contributes to results/index.html. */
export interface ReproductionRecord {
  /** The reproduction's name ("paper-a"). */
  name: string;
  title: string;
  /** Its reports, main report first; paths relative to the reproduction's folder. */
  reports: Array<{ title: string; path: string }>;
  /** Every published cell it covers, with its status and why. */
  cells: CellStatus[];
  /** Published tables it rebuilds that have no published cells to compare with, and why. */
  uncompared: Array<{ table: string; why: string }>;
}

/** One row of the index: one published table of one reproduction. */
export interface IndexRow {
  reproduction: string;
  table: string;
  counts: ReproductionCounts;
  /** The status in words: the one status of every cell, or the counts when they are mixed. */
  status: string;
  /** The class of the row's colour: the status when all cells share one, "mixed" otherwise. */
  tone: ReproductionStatus | 'mixed';
  /** Distinct reasons of the cells that are not reproduced, each with how many cells it covers. */
  reasons: Array<{ status: ReproductionStatus; why: string; cells: number }>;
  /** The report that shows the table (relative to the index). */
  report: string | null;
}

/**
 * writeReproductionRecord(directory, record) writes <directory>/reproduction.json
 * atomically, report paths made relative to the folder. O(cells).
 * @param directory the reproduction's output folder
 * @param record what it reproduced (report paths absolute or relative to directory)
 * @returns the path written
 * @example writeReproductionRecord('results/paper-a', { name: 'paper-a', ... })
 */
export function writeReproductionRecord(directory: string, record: ReproductionRecord): string {
  const path = join(directory, REPRODUCTION_RECORD_FILE);
  const reports = record.reports.map((report) => ({
    ...report,
    path: relative(directory, resolve(directory, report.path)),
  }));
  writeFileAtomic(path, `${JSON.stringify({ ...record, reports }, null, 2)}\n`);
  return path;
}

function readRecord(path: string): ReproductionRecord {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw inputError({ where: path, expected: 'a reproduction record (JSON)', found: (error as Error).message });
  }
  const record = json as Partial<ReproductionRecord>;
  if (typeof record?.name !== 'string' || !Array.isArray(record.cells) || !Array.isArray(record.reports)) {
    throw inputError({ where: path, expected: 'an object with name, reports and cells', found: json });
  }
  return { title: record.name, uncompared: [], ...record } as ReproductionRecord;
}

/**
 * readReproductionRecords(root) reads <root>/<folder>/reproduction.json of every
 * reproduction folder under root, in folder-name order. Throws InputError for a
 * damaged record. O(records).
 * @param root the results folder (results/)
 * @returns the records with the folder each was found in
 * @example readReproductionRecords('results').map((entry) => entry.record.name)
 */
export function readReproductionRecords(root: string): Array<{ folder: string; record: ReproductionRecord }> {
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .sort()
    .map((name) => join(root, name))
    .filter((folder) => statSync(folder).isDirectory() && existsSync(join(folder, REPRODUCTION_RECORD_FILE)))
    .map((folder) => ({ folder, record: readRecord(join(folder, REPRODUCTION_RECORD_FILE)) }));
}

function statusInWords(counts: ReproductionCounts): { status: string; tone: IndexRow['tone'] } {
  const present = REPRODUCTION_STATUSES.filter((status) => counts[status] > 0);
  if (present.length === 1) return { status: `all ${counts.total} ${present[0]}`, tone: present[0] };
  return { status: present.map((status) => `${counts[status]} ${status}`).join(', '), tone: 'mixed' };
}

/**
 * indexRows(records, root) lays the records out one row per published table (in the
 * order the tables first appear), the reasons of its cells collapsed to one line per
 * distinct reason. O(cells).
 * @param records from readReproductionRecords
 * @param root the folder index.html is written in (report links are relative to it)
 * @returns the index's rows
 * @example indexRows(readReproductionRecords('results'), 'results')[0].table // 'Table 1'
 */
export function indexRows(records: ReadonlyArray<{ folder: string; record: ReproductionRecord }>, root: string) {
  const rows: IndexRow[] = [];
  for (const { folder, record } of records) {
    const main = record.reports[0];
    const report = main === undefined ? null : relative(root, join(folder, main.path));
    const tables = [...new Set(record.cells.map((cell) => cell.table))];
    for (const table of tables) {
      const cells = record.cells.filter((cell) => cell.table === table);
      const counts = countStatuses(cells);
      const reasons = new Map<string, { status: ReproductionStatus; why: string; cells: number }>();
      for (const cell of cells.filter((entry) => entry.why !== '')) {
        const key = `${cell.status}\u0000${cell.why}`;
        const entry = reasons.get(key) ?? { status: cell.status, why: cell.why, cells: 0 };
        entry.cells += 1;
        reasons.set(key, entry);
      }
      rows.push({
        reproduction: record.name,
        table,
        counts,
        ...statusInWords(counts),
        reasons: [...reasons.values()],
        report,
      });
    }
    for (const { table, why } of record.uncompared) {
      const counts = countStatuses([]);
      rows.push({
        reproduction: record.name,
        table,
        counts,
        status: 'not comparable',
        tone: 'not comparable',
        reasons: [{ status: 'not comparable', why, cells: 0 }],
        report,
      });
    }
  }
  return rows;
}

function reportsList(records: ReadonlyArray<{ folder: string; record: ReproductionRecord }>, root: string): string {
  const items = records.flatMap(({ folder, record }) =>
    record.reports.map((report) => {
      const href = relative(root, join(folder, report.path));
      return `<li><a href="${escapeHtml(href)}">${escapeHtml(report.title)}</a> <code>${escapeHtml(href)}</code></li>`;
    }),
  );
  return `<ul>${items.join('')}</ul>`;
}

function rowHtml(row: IndexRow): string {
  const counts = REPRODUCTION_STATUSES.map((status) => `<td class="num">${row.counts[status]}</td>`).join('');
  const reasons = row.reasons
    .map(
      (reason) =>
        `<li><strong>${escapeHtml(reason.status)}</strong>` +
        `${reason.cells > 1 ? ` (${reason.cells} cells)` : ''}: ${escapeHtml(reason.why)}</li>`,
    )
    .join('');
  const why =
    reasons === '' ? '' : `<details><summary>${row.reasons.length} reason(s)</summary><ul>${reasons}</ul></details>`;
  const link = row.report === null ? '' : `<a href="${escapeHtml(row.report)}">report</a>`;
  const tone = row.tone === 'mixed' ? 'status-mixed' : statusClass(row.tone);
  return (
    `<tr ` +
    `class="${tone}"><td>${escapeHtml(row.reproduction)}</td><td>${escapeHtml(row.table)}</td>` +
    `<td>${escapeHtml(row.status)}</td>${counts}<td ` +
    `class="why">${why}</td><td>${link}</td></tr>`
  );
}

/**
 * resultsIndexHtml(records, root, generatedAt) is results/index.html: one row per
 * published table (its status, the count of each status, the reasons collapsed, a
 * link to its report), the total in the sentence every surface prints, and a list of
 * every report. Self-contained (inline CSS, no scripts). O(cells).
 */
export function resultsIndexHtml(
  records: ReadonlyArray<{ folder: string; record: ReproductionRecord }>,
  root: string,
  generatedAt: string,
): string {
  const rows = indexRows(records, root);
  const total = countStatuses(records.flatMap(({ record }) => record.cells));
  const head = REPRODUCTION_STATUSES.map((status) => `<th>${escapeHtml(status)}</th>`).join('');
  const style =
    'body{font-family:"DejaVu Sans","Liberation Sans",Arial,sans-serif;margin:24px ' +
    '32px;color:#1b1b1b;line-height:1.45}' +
    '.table-wrap{overflow-x:auto;max-width:100%}table{border-collapse:collapse;font-size:13px}' +
    'th,td{border:1px solid #ddd;padding:3px 8px;vertical-align:top}th{background:#f0f3f6}td.num{text-align:right}' +
    'td.why{max-width:560px}td.why li{margin:2px 0}tr.status-mixed td{background:#fff}' +
    STATUS_STYLE;
  return [
    '<!DOCTYPE html>',
    `<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, ` +
      `initial-scale=1"><title>fairaudit results</title><style>${style}</style></head><body>`,
    '<h1>fairaudit results: every published table</h1>',
    `<p>Generated ${escapeHtml(generatedAt)}. <strong>${escapeHtml(countsSentence(total))}.</strong></p>`,
    '<p>"reproduced": real data, within the Monte Carlo tolerance or the rounding; "within training ' +
      'variability": retrained seeds reach it; ' +
      '"differs": real data, outside it (reasons below each row); "not reproduced": no data or no value (why); ' +
      '"not comparable": nothing published to compare with; ' +
      '"synthetic" (grey): calibrated synthetic data built from the published numbers, not a reproduction.</p>',
    `<div class="table-wrap"><table ` +
      `id="results-index"><thead><tr><th>Reproduction</th><th>Table</th><th>Status</th>${head}` +
      '<th>Why</th><th>Report</th></tr></thead><tbody>',
    ...rows.map(rowHtml),
    '</tbody></table></div>',
    '<h2>Every report</h2>',
    reportsList(records, root),
    '</body></html>',
    '',
  ].join('\n');
}

/**
 * writeResultsIndex(root, now) writes <root>/index.html from the reproduction records
 * under root (every reproduction run into that folder so far). Throws InputError for a
 * damaged record. O(cells).
 * @param root the results folder
 * @param now the clock for the "generated" stamp (absent: the stamp names the records, so trees compare equal)
 * @returns the path written, the rows and the total counts
 * @example writeResultsIndex('results').path // 'results/index.html'
 */
export function writeResultsIndex(
  root: string,
  now?: Date,
): { path: string; rows: IndexRow[]; counts: ReproductionCounts } {
  const records = readReproductionRecords(root);
  const path = join(root, 'index.html');
  // Without a clock the stamp names its source, so equal results give equal bytes.
  const stamp = now === undefined ? "from the reproductions' records" : now.toISOString();
  writeFileAtomic(path, resultsIndexHtml(records, root, stamp));
  return {
    path,
    rows: indexRows(records, root),
    counts: countStatuses(records.flatMap(({ record }) => record.cells)),
  };
}

import { join } from 'node:path';
import type { PirBenchmarkRow } from '../../src/pir/benchmark-pir.js';
import type { ChartSpec } from '../../src/report/charts/chart-spec.js';
import { type LineDatum, lineChartSpec } from '../../src/report/charts/line-chart.js';
import { writeChart } from '../../src/report/charts/write-chart.js';
import { reportHtml } from '../../src/report/report-html.js';
import type { SummaryTable } from '../../src/report/summary-table.js';
import { writeTable } from '../../src/report/write-table.js';
import { writeFileAtomic } from '../../src/util/atomic-write.js';

/** Why paper B's Table 1 has no comparison: its timings are not in our copy of the paper's text. */
export const TABLE_ONE_NOT_COMPARED =
  "The paper's own timings are not in our copy of its text, so there is nothing published to compare with: these " +
  'are measurements.';

/** Candidate-set sizes N of paper B Table 2: CCD (gender) 13,500, COMPAS 2,778, HateDay 36,450. */
export const PAPER_B_CANDIDATE_SETS: ReadonlyArray<{ dataset: string; entries: number }> = [
  { dataset: 'CCD', entries: 13_500 },
  { dataset: 'COMPAS', entries: 2_778 },
  { dataset: 'HateDay', entries: 36_450 },
];

/** The database sizes of paper B Table 1 as reproduced here: 2^14 … 2^24, then the candidate sets. */
export function paperBTableOneSizes(): number[] {
  const powers = Array.from({ length: 11 }, (_, i) => 2 ** (14 + i));
  return [...powers, ...PAPER_B_CANDIDATE_SETS.map((set) => set.entries)];
}

function sizeLabel(entries: number): string {
  const dataset = PAPER_B_CANDIDATE_SETS.find((set) => set.entries === entries);
  if (dataset) return `${entries.toLocaleString('en-US')} (${dataset.dataset})`;
  const log = Math.log2(entries);
  return Number.isInteger(log) ? `2^${log}` : entries.toLocaleString('en-US');
}

/**
 * Where the measured times of paper-b-pir are, for the tables' captions and the report: they depend on the machine
 * and its load, so the tables keep what two runs agree on and the times stay in run.json's provenance.
 */
export const TIMES_IN_PROVENANCE =
  "Times depend on the machine and its load: they are in run.json's provenance (timings), or in these tables with " +
  '`fairaudit reproduce paper-b-pir --timings` (then two trees no longer compare equal).';

/** What the tables say about their times: where they are, or that these are this machine's (--timings). */
export function timesNote(timings: boolean): string {
  return timings
    ? 'Times measured on this machine (--timings): this tree does not compare equal with another run.'
    : TIMES_IN_PROVENANCE;
}

/**
 * paperBTableOne(rows, timings) lays benchmark rows out as paper B Table 1 (online
 * phase of VeriSimplePIR per database size), one row per size: the matrix shape, the
 * bandwidth up and down, the hint, and whether every column was recovered; with
 * timings (--timings, bench pir --out) also the query, answer, recovery and
 * verification times and the answer's GB/s, which depend on the machine. O(rows).
 */
export function paperBTableOne(rows: readonly PirBenchmarkRow[], timings = false): SummaryTable {
  const times: SummaryTable['columns'] = [
    {
      name: 'query_ms',
      label: 'Query (ms)',
      type: 'number',
      digits: 3,
      description: 'Regev encryption of a unit vector',
    },
    { name: 'answer_ms', label: 'Answer (ms)', type: 'number', digits: 3, description: 'D·u on the provider' },
    {
      name: 'recover_ms',
      label: 'Recovery (ms)',
      type: 'number',
      digits: 3,
      description: 'decryption and noise check',
    },
    { name: 'verify_ms', label: 'Verify (ms)', type: 'number', digits: 3, description: 'Z·u = C·v' },
  ];
  return {
    id: 'paper-b-table-1',
    title: 'Paper B, Table 1. Online phase of SimplePIR with a VeriSimplePIR-style commitment, by database size',
    caption:
      'One-bit labels packed into the ℓ × m matrix D over Z_p; upload = one query, download = one answer ' +
      '(16-byte frame header included). ' +
      (timings ? 'One core, WebAssembly SIMD answer kernel; medians of the measured repetitions. ' : '') +
      timesNote(timings),
    columns: [
      { name: 'size', label: 'Database size |h(S)|', type: 'string' },
      { name: 'entries', label: 'Entries', type: 'number', digits: 0 },
      { name: 'plaintext_modulus', label: 'p', type: 'number', digits: 0, description: 'plaintext modulus' },
      { name: 'matrix', label: 'D (ℓ × m elements of Z_p)', type: 'string' },
      ...(timings ? times : []),
      { name: 'upload_kb', label: 'Upload (KB)', type: 'number', digits: 2 },
      { name: 'download_kb', label: 'Download (KB)', type: 'number', digits: 2 },
      { name: 'hint_mb', label: 'Hint (MB, offline)', type: 'number', digits: 2 },
      ...(timings ? [{ name: 'answer_gbps', label: 'Answer (GB/s)', type: 'number' as const, digits: 2 }] : []),
      { name: 'correct', label: 'Correct', type: 'string' },
    ],
    rows: rows.map((row) => ({
      size: sizeLabel(row.entries),
      entries: row.entries,
      plaintext_modulus: row.plaintextModulus,
      matrix: `${row.rows} × ${row.columns}`,
      ...(timings
        ? { query_ms: row.queryMs, answer_ms: row.answerMs, recover_ms: row.recoverMs, verify_ms: row.verifyMs }
        : {}),
      upload_kb: row.queryBytes / 1000,
      download_kb: row.answerBytes / 1000,
      hint_mb: row.hintBytes / 1e6,
      ...(timings ? { answer_gbps: row.answerGBps } : {}),
      correct: row.correct ? 'yes' : 'NO',
    })),
  };
}

/**
 * paperBTableOneChart(rows, timings) plots against the number of entries (log x) the
 * bytes of one query and one answer, or with timings the online times.
 */
export function paperBTableOneChart(rows: readonly PirBenchmarkRow[], timings = false): ChartSpec {
  const data: LineDatum[] = [];
  const sorted = [...rows].sort((a, b) => a.entries - b.entries);
  for (const row of sorted) {
    if (timings) {
      data.push({ x: row.entries, series: 'query', value: row.queryMs });
      data.push({ x: row.entries, series: 'answer', value: row.answerMs });
      data.push({ x: row.entries, series: 'recovery', value: row.recoverMs });
    } else {
      data.push({ x: row.entries, series: 'upload (one query)', value: row.queryBytes / 1000 });
      data.push({ x: row.entries, series: 'download (one answer)', value: row.answerBytes / 1000 });
    }
  }
  const title = timings ? 'Online PIR times by database size' : 'Online PIR bandwidth by database size';
  return {
    id: 'paper-b-table-1',
    title,
    caption: timings
      ? 'Paper B Table 1 reproduced: query (auditor), answer (provider), recovery (auditor), milliseconds, measured ' +
        'on this machine.'
      : `Paper B Table 1 reproduced: kilobytes of one query (up) and one answer (down). ${TIMES_IN_PROVENANCE}`,
    spec: lineChartSpec(data, {
      title,
      xTitle: 'Entries (one-bit labels)',
      valueTitle: timings ? 'Milliseconds' : 'Kilobytes',
      seriesTitle: timings ? 'Step' : 'Direction',
      logX: true,
    }),
  };
}

/**
 * writePaperBTableOne(folder, rows, options) writes the table with the reporter
 * (<folder>/paper-b-table-1.arrow, .csv, .md) and the chart (charts/paper-b-table-1
 * .vl.json, .svg, and .png unless options.png is false), and the tables of
 * options.alongside (each as <folder>/<id>.arrow, .csv, .md, and in the report), and
 * report.html; the times only with options.timings (bench pir --out; --timings).
 * Returns the paths written.
 */
export async function writePaperBTableOne(
  folder: string,
  rows: readonly PirBenchmarkRow[],
  options: { png?: boolean; now?: Date; alongside?: readonly SummaryTable[]; timings?: boolean } = {},
): Promise<string[]> {
  const timings = options.timings ?? false;
  const table = paperBTableOne(rows, timings);
  const alongside = options.alongside ?? [];
  const paths = [...writeTable(folder, table), ...alongside.flatMap((other) => writeTable(folder, other))];
  const chart = await writeChart(folder, paperBTableOneChart(rows, timings), options.png !== false);
  const reportPath = join(folder, 'report.html');
  writeFileAtomic(
    reportPath,
    reportHtml({
      experiment: 'paper-b-pir',
      kind: 'paper-b-pir (PIR online phase, measured here)',
      kindDescription: `Paper B Table 1 measured on this machine. ${TABLE_ONE_NOT_COMPARED} ${timesNote(timings)}`,
      generatedAt: options.now === undefined ? 'from its measurements' : options.now.toISOString(),
      provenance: [['database sizes', rows.map((row) => sizeLabel(row.entries)).join(', ')]],
      config: null,
      summary: table,
      paperTables: [...alongside],
      charts: [chart.rendered],
      comparison: null,
      notices: chart.pngProblem === null ? [] : [`PNG files were not written (${chart.pngProblem}).`],
    }),
  );
  return [...paths, ...chart.files, reportPath];
}

#!/usr/bin/env node
// Peak memory of writing a results table of the quickstart's columns, streamed in
// bounded record batches (src/util/arrow-file-writer.ts) or, for contrast, built whole
// and encoded in one batch as the runner does today (encodeResultTable).
//   node scripts/measure-results-writer.mjs --rows 100000000 --out /tmp/results.arrow [--batch 65536] [--mode
// stream|whole] [--keep]
// Needs dist/ (npm run build). Prints one JSON line: rows, batches, bytes, seconds,
// peak RSS (process.resourceUsage().maxRSS) and the RSS before the first row.
// The rows are synthetic : the 12 cells of configs/quickstart.yaml,
// replicates in canonical order, outcome values from a cheap integer hash, and seeds
// of the real length (32 hex digits) from that hash rather than SHA-256 (deriveSeed),
// which would add ~100 s of CPU for 10^8 rows and no memory.
import { rmSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ArrowFileWriter } from '../dist/src/util/arrow-file-writer.js';
import { encodeResultTable } from '../dist/src/harness/results-table.js';
import { writeFileAtomic } from '../dist/src/util/atomic-write.js';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '100000000' },
    out: { type: 'string', default: '/tmp/fairaudit-measure-results.arrow' },
    batch: { type: 'string', default: '65536' },
    mode: { type: 'string', default: 'stream' },
    keep: { type: 'boolean', default: false },
  },
});
const rows = Number(values.rows);
const batchRows = Number(values.batch);
const startRss = process.memoryUsage().rss;

const cells = [];
for (const access of ['decision', 'logit', 'score'])
  for (const metric of ['eo', 'sp'])
    for (const pool of ['compliant', 'violating']) {
      cells.push({ key: JSON.stringify({ access, metric, pool }), access, metric, pool });
    }
cells.sort((a, b) => (a.key < b.key ? -1 : 1));
const replicatesPerCell = Math.ceil(rows / cells.length);
const columns = [
  ['experiment', 'utf8'], ['kind', 'utf8'], ['cell', 'utf8'], ['access', 'utf8'], ['metric', 'utf8'], ['pool', 'utf8'],
  ['replicate', 'int32'], ['seed', 'utf8'], ['decision', 'utf8'], ['queries', 'int32'], ['statistic', 'float64'],
  ['oracle_gap', 'float64'], ['oracle_decision', 'utf8'], ['fixed_decision', 'utf8'], ['fixed_samples', 'int32'],
  ['pool_size', 'int32'], ['proxy_gap', 'float64'],
].map(([name, type]) => ({ name, type }));
const decisions = ['reject', 'accept', 'inconclusive'];
const hash = (x, salt) => {
  let h = Math.imul(x ^ salt, 0x9e3779b1);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
};
const hex4 = Array.from({ length: 65536 }, (_, i) => i.toString(16).padStart(4, '0'));
const hex8 = (n) => hex4[n >>> 16] + hex4[n & 0xffff];

/** Rows first..first+count-1 in canonical order (cell-major), as one batch of columns. */
function batchOf(first, count) {
  const cellIndex = new Int32Array(count);
  const replicate = new Int32Array(count);
  const seed = new Array(count);
  const decision = new Int32Array(count);
  const queries = new Int32Array(count);
  const statistic = new Float64Array(count);
  const oracleGap = new Float64Array(count);
  const oracleDecision = new Int32Array(count);
  const fixedDecision = new Int32Array(count);
  const fixedSamples = new Int32Array(count).fill(4000);
  const poolSize = new Int32Array(count);
  const proxyGap = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const row = first + i;
    const c = Math.floor(row / replicatesPerCell);
    cellIndex[i] = c;
    replicate[i] = row - c * replicatesPerCell;
    const h = hash(row, 1);
    seed[i] = hex8(h) + hex8(hash(row, 2)) + hex8(hash(row, 3)) + hex8(hash(row, 4));
    decision[i] = h % 3;
    queries[i] = 1 + (h % 4000);
    statistic[i] = (h / 2 ** 32) * 6 - 3;
    oracleGap[i] = c % 2 === 0 ? 0.02 : 0.12;
    oracleDecision[i] = c % 2;
    fixedDecision[i] = (h >>> 8) % 2;
    poolSize[i] = cells[c].metric === 'sp' ? 20000 : 8600;
    proxyGap[i] = cells[c].access === 'decision' ? Number.NaN : oracleGap[i] * 0.9;
  }
  const same = (text) => ({ indices: new Int32Array(count), dictionary: [text] });
  const byCell = (field) => ({ indices: cellIndex, dictionary: cells.map((cell) => cell[field]) });
  return {
    experiment: same('quickstart'), kind: same('sequential-audit'), cell: byCell('key'), access: byCell('access'),
    metric: byCell('metric'), pool: byCell('pool'), replicate, seed,
    decision: { indices: decision, dictionary: decisions },
    queries, statistic, oracle_gap: oracleGap,
    oracle_decision: { indices: oracleDecision, dictionary: decisions },
    fixed_decision: { indices: fixedDecision, dictionary: decisions },
    fixed_samples: fixedSamples, pool_size: poolSize, proxy_gap: proxyGap,
  };
}

const started = performance.now();
let summary;
if (values.mode === 'stream') {
  const writer = new ArrowFileWriter(values.out, columns, new Map([['fairaudit.experiment', 'quickstart']]));
  for (let first = 0; first < rows; first += batchRows) {
    const count = Math.min(batchRows, rows - first);
    writer.writeBatch(batchOf(first, count), count);
  }
  summary = writer.close();
} else {
  // As the runner does today: every row in plain arrays, then one batch (encodeResultTable).
  const batch = batchOf(0, rows);
  const data = {};
  for (const { name } of columns) {
    const column = batch[name];
    const decode = (coded) =>
      coded.indices ? Array.from(coded.indices, (i) => coded.dictionary[i]) : Array.from(coded);
    data[name] = Array.isArray(column) ? column : decode(column);
  }
  const bytes = encodeResultTable(columns, data, new Map([['fairaudit.experiment', 'quickstart']]));
  writeFileAtomic(values.out, bytes);
  summary = { path: values.out, rows, batches: 1, bytes: bytes.byteLength };
}
const seconds = (performance.now() - started) / 1000;
const bytes = statSync(values.out).size;
if (!values.keep) rmSync(values.out, { force: true });
process.stdout.write(
  `${JSON.stringify({
    mode: values.mode,
    rows,
    batchRows: values.mode === 'stream' ? batchRows : rows,
    batches: summary.batches,
    bytes,
    seconds: Number(seconds.toFixed(1)),
    peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
    startRssMB: Math.round(startRss / 2 ** 20),
  })}\n`,
);

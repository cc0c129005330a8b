import { join } from 'node:path';
import { benchmarkPir, type PirBenchmarkRow } from '../../src/pir/benchmark-pir.js';
import { paperBTableOneSizes, TABLE_ONE_NOT_COMPARED, writePaperBTableOne } from './table-1.js';
import { packageRoot } from '../../src/util/paths.js';
import type { Reproduction } from '../reproduction.js';

/** Timed repetitions per database size: paper B reports the average of 10 runs. */
const REPETITIONS = 10;

/**
 * `fairaudit reproduce paper-b-pir`: paper B Table 1 (online phase of the PIR per
 * database size, 2^14 … 2^24 one-bit entries and the candidate sets of CCD, COMPAS and
 * HateDay), measured on this machine with the project's SimplePIR and written as a
 * table and chart with the reporter. The paper's own timings are not in our copy of
 * its text, so there is nothing published to compare with: these are measurements.
 */
export const paperBPirReproduction: Reproduction = {
  name: 'paper-b-pir',
  title: 'Paper B Table 1: PIR online timings and bandwidth by database size (measured here)',
  async run(options) {
    const outDirectory = options.outDirectory ?? join(packageRoot(), 'results', 'paper-b-pir');
    const sizes = paperBTableOneSizes();
    const rows: PirBenchmarkRow[] = [];
    for (const [index, entries] of sizes.entries()) {
      options.onProgress?.('paper-b-pir: timing PIR per database size', index, sizes.length);
      rows.push(await benchmarkPir({ entries, entryBits: 1, repetitions: REPETITIONS }));
    }
    options.onProgress?.('paper-b-pir: timing PIR per database size', sizes.length, sizes.length);
    const paths = await writePaperBTableOne(outDirectory, rows, { png: options.png });
    const largest = rows.reduce((best, row) => (row.entries > best.entries ? row : best));
    const wrong = rows.filter((row) => !row.correct).length;
    return {
      name: 'paper-b-pir',
      outDirectory,
      lines: [
        `paper-b-pir: Table 1 measured at ${rows.length} database sizes (${REPETITIONS} repetitions each, one core)`,
        `  at ${largest.entries} entries: answer ${largest.answerMs.toFixed(3)} ms ` +
          `(${largest.answerGBps.toFixed(1)} GB/s), query ${largest.queryMs.toFixed(2)} ms, ` +
          `recovery ${largest.recoverMs.toFixed(3)} ms`,
        `  every recovered column checked against the ` +
          `database: ${wrong === 0 ? 'all correct' : `${wrong} sizes WRONG`}`,
        `  table: ${paths[0]}; report: ${paths[paths.length - 1]}`,
      ],
      cells: [],
      reports: [{ title: 'Paper B: Table 1 (PIR online phase)', path: paths[paths.length - 1] }],
      uncompared: [{ table: 'Table 1', why: TABLE_ONE_NOT_COMPARED }],
    };
  },
};

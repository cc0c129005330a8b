import { join, relative } from 'node:path';
import { loadAverage, machine, processCpuSeconds } from '../../src/harness/machine.js';
import {
  fairauditVersion,
  gitCommit,
  MEASUREMENT_RECORD_FORMAT,
  type MeasurementRecord,
} from '../../src/harness/run-record.js';
import { benchmarkObliviousTransports, type ObliviousTransportRow } from '../../src/pir/benchmark-oblivious.js';
import { benchmarkPir, type PirBenchmarkRow } from '../../src/pir/benchmark-pir.js';
import { writeFileAtomic } from '../../src/util/atomic-write.js';
import { packageRoot } from '../../src/util/paths.js';
import type { Reproduction } from '../reproduction.js';
import { paperBAuditorLearnsTable } from './auditor-learns.js';
import { PAPER_B_CANDIDATE_SETS, paperBTableOneSizes, TABLE_ONE_NOT_COMPARED, writePaperBTableOne } from './table-1.js';

/** Timed repetitions per database size: paper B reports the average of 10 runs. */
const REPETITIONS = 10;

/** Canaries k of the audits in the table "what the auditor learns". */
const CANARIES = 10;

/**
 * `fairaudit reproduce paper-b-pir`: paper B Table 1 (online phase of the PIR per
 * database size, 2^14 … 2^24 one-bit entries and the candidate sets of CCD, COMPAS and
 * HateDay), measured on this machine with the project's SimplePIR and written as a
 * table and chart with the reporter, and beside it the table "what the auditor learns"
 * (paper-b-auditor-learns: one audit per label transport at each candidate set, labels
 * revealed, bytes moved, time). The paper's own timings are not in our copy of its text,
 * so there is nothing published to compare with: these are measurements. The times go
 * to run.json's provenance (a MeasurementRecord), the tables keep the columns two runs
 * agree on (sizes, bytes, labels), unless options.timings puts the times in them.
 */
export const paperBPirReproduction: Reproduction = {
  name: 'paper-b-pir',
  title: 'Paper B Table 1: PIR online timings and bandwidth by database size (measured here)',
  async run(options) {
    const outDirectory = options.outDirectory ?? join(packageRoot(), 'results', 'paper-b-pir');
    const started = { at: new Date(), cpuSeconds: processCpuSeconds(), loadAverage: loadAverage() };
    const timings = options.timings ?? false;
    const sizes = paperBTableOneSizes();
    const rows: PirBenchmarkRow[] = [];
    for (const [index, entries] of sizes.entries()) {
      options.onProgress?.('timing PIR per database size', index, sizes.length);
      rows.push(await benchmarkPir({ entries, entryBits: 1, repetitions: REPETITIONS }));
    }
    options.onProgress?.('timing PIR per database size', sizes.length, sizes.length);
    const transports: ObliviousTransportRow[] = [];
    for (const [index, set] of PAPER_B_CANDIDATE_SETS.entries()) {
      options.onProgress?.('one audit per label transport', index, PAPER_B_CANDIDATE_SETS.length);
      const retrievals = Math.ceil(set.entries / 2) + CANARIES;
      // The VOPRF online phase blocks this thread for tens of seconds: its batches draw the progress lines.
      const onProgress = (done: number, total: number) =>
        options.onProgress?.(`${set.dataset} labels through the VOPRF transfer`, done, total);
      transports.push(
        ...(await benchmarkObliviousTransports({ entries: set.entries, retrievals, threads: 2, onProgress })),
      );
    }
    options.onProgress?.('one audit per label transport', PAPER_B_CANDIDATE_SETS.length, PAPER_B_CANDIDATE_SETS.length);
    const learns = paperBAuditorLearnsTable(transports, timings);
    const paths = await writePaperBTableOne(outDirectory, rows, { png: options.png, alongside: [learns], timings });
    const finished = new Date();
    const record: MeasurementRecord = {
      format: MEASUREMENT_RECORD_FORMAT,
      experiment: 'paper-b-pir',
      files: paths.map((path) => relative(outDirectory, path)),
      provenance: {
        fairauditVersion: fairauditVersion(),
        nodeVersion: process.version,
        gitCommit: gitCommit(),
        wallSeconds: (finished.getTime() - started.at.getTime()) / 1000,
        cpuSeconds: processCpuSeconds() - started.cpuSeconds,
        machine: machine(),
        loadAverage: { started: started.loadAverage, finished: loadAverage() },
        startedAt: started.at.toISOString(),
        finishedAt: finished.toISOString(),
        timings: { 'paper-b-table-1': rows, 'paper-b-auditor-learns': transports },
      },
    };
    writeFileAtomic(join(outDirectory, 'run.json'), `${JSON.stringify(record, null, 2)}\n`);
    const voprfRevealed = transports.filter((row) => row.transport === 'voprf');
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
        `  what the auditor learns: ` +
          `voprf ${voprfRevealed.map((row) => `${row.labelsRevealed}/${row.entries}`).join(', ')} labels; ` +
          `simplepir all of ` +
          `them (paper-b-auditor-learns.md)`,
        `  table: ${paths[0]}; report: ${paths[paths.length - 1]}; ` +
          `times: ${timings ? 'in the tables (--timings)' : "run.json's provenance"}`,
      ],
      cells: [],
      reports: [{ title: 'Paper B: Table 1 (PIR online phase)', path: paths[paths.length - 1] }],
      uncompared: [{ table: 'Table 1', why: TABLE_ONE_NOT_COMPARED }],
    };
  },
};

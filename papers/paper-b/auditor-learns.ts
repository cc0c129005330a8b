import type { ObliviousTransportRow } from '../../src/pir/benchmark-oblivious.js';
import type { SummaryTable } from '../../src/report/summary-table.js';
import { PAPER_B_CANDIDATE_SETS, timesNote } from './table-1.js';

/** What each transport keeps of paper B §4.1's promise to the provider, in words. */
const PROMISE: Record<ObliviousTransportRow['transport'], string> = {
  voprf: 'kept: exactly |S| + k labels (one-more-gap-DH; not post-quantum)',
  simplepir: 'broken: the hint determines every label',
};

/**
 * paperBAuditorLearnsTable(rows, timings) is paper B's table "what the auditor learns":
 * for each candidate set (CCD, COMPAS, HateDay-sized, |S| = ⌈N/2⌉ plus k canaries) and
 * each label transport, the labels the auditor can read and the bytes moved in both
 * directions, from benchmarkObliviousTransports; with timings (--timings) also the
 * provider's setup, the auditor's and the whole audit's time (voprf: the table's CPU
 * time over its threads plus the online phase's CPU; simplepir: bench pir's wall
 * medians), which depend on the machine. O(rows).
 * @param rows one row per transport and candidate set
 * @param timings add the measured times (the tree then differs from run to run)
 * @returns the summary table `paper-b-auditor-learns`
 * @example paperBAuditorLearnsTable(await benchmarkObliviousTransports({ entries: 2778, retrievals: 1399 }))
 */
export function paperBAuditorLearnsTable(rows: readonly ObliviousTransportRow[], timings = false): SummaryTable {
  const times: SummaryTable['columns'] = [
    { name: 'provider_setup_s', label: 'Provider setup (s)', type: 'number', digits: 2 },
    { name: 'auditor_s', label: 'Auditor (s)', type: 'number', digits: 2 },
    { name: 'whole_audit_s', label: 'Whole audit (s)', type: 'number', digits: 2 },
  ];
  return {
    id: 'paper-b-auditor-learns',
    title: timings
      ? 'What the auditor learns: labels revealed, bytes moved and time, per label transport and candidate set'
      : 'What the auditor learns: labels revealed and bytes moved, per label transport and candidate set',
    caption:
      'One audit of |S| + k labels, |S| = ⌈N/2⌉, k = 10 (`fairaudit bench oblivious --paper-sizes` prints the ' +
      'same rows). ' +
      (timings
        ? 'voprf times are CPU (the table split over its threads); simplepir times are wall medians on one core. '
        : '') +
      timesNote(timings),
    columns: [
      { name: 'dataset', label: 'Candidate set', type: 'string' },
      { name: 'transport', label: 'Transport', type: 'string' },
      { name: 'entries', label: 'N', type: 'number', digits: 0 },
      { name: 'retrievals', label: '|S| + k', type: 'number', digits: 0 },
      { name: 'labels_revealed', label: 'Labels revealed', type: 'number', digits: 0 },
      { name: 'promise', label: "Provider's promise (§4.1)", type: 'string' },
      { name: 'mb_moved', label: 'MB moved', type: 'number', digits: 3 },
      ...(timings ? times : []),
    ],
    rows: rows.map((row) => ({
      dataset: PAPER_B_CANDIDATE_SETS.find((set) => set.entries === row.entries)?.dataset ?? String(row.entries),
      transport: row.transport,
      entries: row.entries,
      retrievals: row.retrievals,
      labels_revealed: row.labelsRevealed,
      promise: PROMISE[row.transport],
      mb_moved: row.bytesMoved / 1e6,
      ...(timings
        ? {
            provider_setup_s: row.providerSetupMs / 1000,
            auditor_s: row.auditorMs / 1000,
            whole_audit_s: (row.providerSetupMs + row.providerOnlineMs + row.auditorMs) / 1000,
          }
        : {}),
    })),
  };
}

import { describe, expect, it } from 'vitest';
import { accessTable } from '../../../papers/paper-a/access-table.js';
import { paperATable1 } from '../../../papers/paper-a/table-1.js';
import { paperATable4 } from '../../../papers/paper-a/table-4.js';
import { paperATable5 } from '../../../papers/paper-a/table-5.js';
import type { CellSummary } from '../../../src/report/cell-results.js';
import { layoutPaperTable } from '../../../src/report/paper-table.js';

function cell(pool: string, metric: string, access: string, values: CellSummary['values']): CellSummary {
  return { cell: `${pool}/${metric}/${access}`, settings: { pool, metric, access }, replicates: 20, values };
}

// Values shaped like paper A Table 2's ACS Robust-Base row (0.0923; 2349 ± 1345, 2157 ± 1443, 708 ± 543).
const summaries: CellSummary[] = [
  cell('acs-robust-base', 'sp', 'decision', {
    oracle_gap: 0.0923,
    oracle_decision: 'reject',
    decision_mode: 'reject',
    queries_mean: 2349,
    queries_std: 1345,
    pool_size: 58700,
  }),
  cell('acs-robust-base', 'sp', 'score', {
    oracle_gap: 0.0923,
    decision_mode: 'reject',
    queries_mean: 2157,
    queries_std: 1443,
    proxy_gap: 0.07,
  }),
  cell('acs-robust-base', 'sp', 'logit', {
    oracle_gap: 0.0923,
    decision_mode: 'reject',
    queries_mean: 708,
    queries_std: 543,
    proxy_gap: 0.5,
  }),
  cell('acs-robust-base', 'eo', 'decision', {
    oracle_gap: 0.0202,
    oracle_decision: 'accept',
    decision_mode: 'accept',
    queries_mean: 2711,
    queries_std: 1123,
    pool_size: 24101,
  }),
];

describe('paper A table layouts', () => {
  it('accessTable("sp", ...) prints a row per model with the three regimes side by side, as Table 2 does', () => {
    const table = layoutPaperTable(accessTable('sp', 't2', 'Table 2', ''), summaries);
    expect(table.rows.length).toBe(4);
    const [row] = table.rows;
    expect(row).toMatchObject({
      dataset: 'ACS',
      model: 'Robust-Base',
      oracle_gap: 0.0923,
      decision: 'Reject, 2349 ± 1345',
      score: 'Reject, 2157 ± 1443',
      logit: 'Reject, 708 ± 543',
      score_proxy_gap: 0.07,
      logit_proxy_gap: 0.5,
      note: null,
    });
    // Rows whose cells are absent keep their place with a note.
    expect(table.rows[3].note).toMatch(/no cell matches/);
  });

  it('accessTable(...) leaves the score and logit columns empty when the run has no such cells', () => {
    const decisionOnly = summaries.filter((summary) => summary.settings.access === 'decision');
    const table = layoutPaperTable(accessTable('sp', 't2', 'Table 2', ''), decisionOnly);
    expect(table.rows[0].decision).toBe('Reject, 2349 ± 1345');
    expect(table.rows[0].score).toBeNull();
  });

  it('accessTable(..., data) adds a Data column saying what each row stands on', () => {
    const data = new Map([['acs-robust-base', 'CALIBRATED SYNTHETIC, not a reproduction']]);
    const table = layoutPaperTable(accessTable('sp', 't2', 'Table 2', '', data), summaries);
    expect(table.rows[0].data).toBe('CALIBRATED SYNTHETIC, not a reproduction');
  });

  it('paperATable1() puts the SP and EO gaps of a model in one row, as Table 1 does', () => {
    const table = layoutPaperTable(paperATable1(), summaries);
    expect(table.rows.length).toBe(8);
    const row = table.rows.find((r) => r.model === 'Robust-Base' && r.dataset === 'ACS');
    expect(row).toMatchObject({
      sp_gap: 0.0923,
      eo_gap: 0.0202,
      sp_oracle: 'reject',
      eo_oracle: 'accept',
      sp_pool: 58700,
      eo_pool: 24101,
    });
  });

  it(
    'Tables 4 and 5 list their eight rows in the printed order (ACS then Adult; SP then EO; Robust then ' + 'Unstable)',
    () => {
      const order = paperATable4().rows.map((row) => `${row.labels.dataset} ${row.labels.model} ${row.labels.metric}`);
      expect(order).toEqual([
        'ACS Robust-Base SP',
        'ACS Unstable-Base SP',
        'ACS Robust-Base EO',
        'ACS Unstable-Base EO',
        'Adult Robust-Base SP',
        'Adult Unstable-Base SP',
        'Adult Robust-Base EO',
        'Adult Unstable-Base EO',
      ]);
      expect(paperATable5().rows).toEqual(paperATable4().rows);
    },
  );
});

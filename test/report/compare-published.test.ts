import { describe, expect, it } from 'vitest';
import { sequentialAuditReporter } from '../../src/kinds/sequential-audit/report.js';
import type { CellSummary } from '../../src/report/cell-results.js';
import {
  comparePublished,
  comparisonTable,
  comparisonTolerance,
  regressionFailures,
} from '../../src/report/compare-published.js';
import { type PublishedCell, parsePublished } from '../../src/report/published.js';

function publishedCells(cells: unknown[]): PublishedCell[] {
  return parsePublished({ paper: 'T', experiment: 'exp', replicates: 20, cells }, 'test.json').cells;
}

const base = { table: 'Table 2', row: { dataset: 'ACS' }, column: 'Decision-only' };

const summaries: CellSummary[] = [
  {
    cell: 'access=decision,dataset=acs',
    settings: { dataset: 'acs', access: 'decision', tolerance: 0.05 },
    replicates: 20,
    values: {
      queries_mean: 2500,
      queries_mean_se: 300,
      frequency_reject: 0.5,
      decision_mode: 'Reject',
      oracle_gap: 0.09231,
      accuracy: 0.5,
    },
  },
  {
    cell: 'access=score,dataset=acs',
    settings: { dataset: 'acs', access: 'score', tolerance: 0.05 },
    replicates: 100,
    values: {
      queries_mean: Number.NaN,
      frequency_reject: 0.5,
      decision_mode: 'accept',
      oracle_gap: 0.0923,
      accuracy: 0.5,
    },
  },
];

describe('comparisonTolerance(cell, reproduced, replicates, seReproduced, sigmas)', () => {
  it('mean: 3·√(SE_rep² + (std/√n_pub)²) + rounding', () => {
    const [cell] = publishedCells([{ ...base, id: 'm', kind: 'mean', value: 2349, std: 1345, rounding: 0.5 }]);
    // python: 3*sqrt(300**2 + (1345/sqrt(20))**2) + 0.5 = 1274.88661716137
    expect(comparisonTolerance(cell, 2500, 20, 300, 3).tolerance).toBeCloseTo(1274.88661716137, 9);
  });
  it('mean without a published ± assumes the reproduced spread for both sides', () => {
    const [cell] = publishedCells([{ ...base, id: 'm', kind: 'mean', value: 100 }]);
    expect(comparisonTolerance(cell, 110, 20, 4, 3).tolerance).toBeCloseTo(3 * Math.sqrt(32), 12);
  });
  it('frequency: 3·pooled two-proportion SE + rounding', () => {
    const [cell] = publishedCells([{ ...base, id: 'f', kind: 'frequency', value: 0.75, rounding: 0.005 }]);
    // python: p=(0.5*20+0.75*20)/40; 3*sqrt(p*(1-p)*(1/20+1/20))+0.005 = 0.46427932677184586
    expect(comparisonTolerance(cell, 0.5, 20, Number.NaN, 3).tolerance).toBeCloseTo(0.46427932677184586, 12);
  });
  it('frequency: two frequencies of 1 agree exactly (tolerance = rounding only)', () => {
    const [cell] = publishedCells([{ ...base, id: 'f', kind: 'frequency', value: 1 }]);
    expect(comparisonTolerance(cell, 1, 20, Number.NaN, 3).tolerance).toBe(0);
  });
  it('analytic: the stated rounding; explicit tolerance and relative tolerance override', () => {
    const cells = publishedCells([
      { ...base, id: 'a', kind: 'analytic', value: 0.0923, rounding: 5e-5 },
      { ...base, id: 'b', kind: 'analytic', value: 0.0923, tolerance: 0.01 },
      { ...base, id: 't', kind: 'timing', value: 2, relativeTolerance: 0.5 },
    ]);
    expect(comparisonTolerance(cells[0], 0.09231, 20, Number.NaN, 3).tolerance).toBe(5e-5);
    expect(comparisonTolerance(cells[1], 0.09231, 20, Number.NaN, 3).tolerance).toBe(0.01);
    expect(comparisonTolerance(cells[2], 2.5, 20, Number.NaN, 3).tolerance).toBe(1);
  });
});

describe('comparePublished(cells, summaries, kind)', () => {
  const cells = publishedCells([
    {
      ...base,
      id: 'queries',
      kind: 'mean',
      quantity: 'mean-queries',
      value: 2349,
      std: 1345,
      rounding: 0.5,
      where: { dataset: 'acs', access: 'decision' },
      regression: true,
    },
    {
      ...base,
      id: 'far',
      kind: 'mean',
      statistic: 'queries_mean',
      value: 9000,
      std: 100,
      where: { dataset: 'acs', access: 'decision' },
      regression: true,
    },
    {
      ...base,
      id: 'decision',
      kind: 'modal-decision',
      quantity: 'decision',
      value: 'reject',
      where: { dataset: 'acs', access: 'decision' },
    },
    {
      ...base,
      id: 'gap',
      kind: 'analytic',
      quantity: 'oracle-gap',
      value: 0.0923,
      rounding: 5e-5,
      where: { dataset: 'acs', access: 'decision', tolerance: '0.05' },
    },
    {
      ...base,
      id: 'freq',
      kind: 'frequency',
      quantity: 'reject-frequency',
      value: 1,
      rounding: 0.005,
      where: { dataset: 'acs', access: 'score' },
    },
    { ...base, id: 'nan', kind: 'mean', quantity: 'mean-queries', value: 10, std: 1, where: { access: 'score' } },
    { ...base, id: 'several', kind: 'frequency', quantity: 'accuracy', value: 0.5, where: { dataset: 'acs' } },
    { ...base, id: 'nowhere', kind: 'frequency', quantity: 'accuracy', value: 0.5 },
    {
      ...base,
      id: 'unknown',
      kind: 'frequency',
      quantity: 'mystery',
      value: 0.5,
      where: { dataset: 'acs' },
      regression: true,
    },
  ]);
  const rows = comparePublished(cells, summaries, sequentialAuditReporter);
  const byId = Object.fromEntries(rows.map((row) => [row.id, row]));

  it('a mean within 3 combined standard errors is within; one far away is outside', () => {
    expect(byId.queries).toMatchObject({
      status: 'within',
      reproduced: 2500,
      difference: 151,
      statistic: 'queries_mean',
    });
    expect(byId.far.status).toBe('outside');
  });
  it('labels compare ignoring case; analytic cells compare up to rounding (setting "0.05" matches 0.05)', () => {
    expect(byId.decision.status).toBe('within');
    expect(byId.gap.status).toBe('within');
    expect(byId.gap.difference).toBeCloseTo(0.00001, 12);
  });
  it('frequency 0.5 of 100 replicates vs published 1.00 of 20 is outside (tolerance 0.367)', () => {
    // python: p=(50+20)/120; 3*sqrt(p*(1-p)*(1/100+1/20))+0.005 = 0.36728441865473593
    expect(byId.freq.tolerance).toBeCloseTo(0.36728441865473593, 12);
    expect(byId.freq.status).toBe('outside');
  });
  it('NaN values and ambiguous selectors are missing; no where or unknown quantity is unmapped', () => {
    expect(byId.nan.status).toBe('missing');
    expect(byId.several.status).toBe('missing');
    expect(byId.several.note).toMatch(/2 reproduced cells/);
    expect(byId.nowhere.status).toBe('unmapped');
    expect(byId.unknown.status).toBe('unmapped');
  });
  it('regressionFailures lists regression cells outside, missing or unmapped', () => {
    expect(regressionFailures(rows).map((row) => row.id)).toEqual(['far', 'unknown']);
  });
  it('comparisonTable(rows) has one row per cell with status and regression columns', () => {
    const table = comparisonTable(rows, 'exp');
    expect(table.rows).toHaveLength(cells.length);
    expect(table.rows[0]).toMatchObject({ id: 'queries', status: 'within', regression: 'yes', published: '2349' });
  });
});

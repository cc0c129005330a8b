import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runPaperB } from '../../../papers/paper-b/reproduce.js';
import { type CandidateSetModel, characteristicsOfModel } from '../../../papers/paper-b/table-2.js';
import type { AuditPool } from '../../../src/audit/pool.js';
import { inputError } from '../../../src/util/errors.js';

const folder = mkdtempSync(join(tmpdir(), 'fairaudit-paper-b-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A pool with `minority` rows of group 1 out of `size`, positive rates given per group. */
function pool(size: number, minority: number, rates: [number, number]): AuditPool {
  const group = new Uint8Array(size);
  const decision = new Uint8Array(size);
  const label = new Uint8Array(size);
  let seen = [0, 0];
  for (let i = 0; i < size; i++) {
    const g = i < minority ? 1 : 0;
    group[i] = g;
    const count = g === 1 ? minority : size - minority;
    decision[i] = seen[g] < Math.round(rates[g] * count) ? 1 : 0;
    label[i] = decision[i] === 1 || i % 5 === 0 ? 1 : 0;
    seen = seen.map((value, index) => (index === g ? value + 1 : value));
  }
  return { size, group, label, decision, score: null, logit: null, id: null, source: 'test' };
}

function fakeModel(setting: { dataset: string; datasetLabel: string; attribute: string }): CandidateSetModel {
  // COMPAS race as printed: N = 2,778, N_min = 947, n = 1,389, n_min = 473 (paper B Table 2)
  return {
    ...setting,
    datasetSize: 6172,
    candidatePool: pool(2778, 947, [0.4, 0.564]),
    auditPool: pool(1389, 473, [0.4, 0.564]),
  };
}

describe('characteristicsOfModel(model)', () => {
  it('measures N, n, N_min, n_min, the gap and the accuracy on C', () => {
    const row = characteristicsOfModel(fakeModel({ dataset: 'compas', datasetLabel: 'COMPAS', attribute: 'race' }));
    expect(row).toMatchObject({
      candidateSetSize: 2778,
      auditSetSize: 1389,
      candidateMinoritySize: 947,
      auditMinoritySize: 473,
      origin: 'reproduced',
    });
    // rates round(0.564·947)/947 − round(0.4·1831)/1831 = 534/947 − 732/1831
    expect(row.gap).toBeCloseTo(534 / 947 - 732 / 1831, 12);
    expect(row.minorityShare).toBeCloseTo(947 / 2778, 12);
  });
});

describe('runPaperB({ candidateSets, simulate: false })', () => {
  it('writes the analytic and model tables, figures, the Table 2 comparison, and lists missing settings', async () => {
    const out = join(folder, 'paper-b');
    const result = await runPaperB({
      outDirectory: out,
      simulate: false,
      png: false,
      candidateSets: async (setting) => {
        if (setting.dataset === 'ccd') throw inputError({ where: 'ccd', expected: 'the CCD files', found: 'nothing' });
        return fakeModel(setting);
      },
    });
    expect(result.reproducedRows).toBe(2);
    expect(result.unavailable.map((missing) => missing.setting)).toEqual([
      'CCD gender',
      'CCD education',
      'CCD marriage',
      'CCD age',
    ]);
    for (const id of [
      'paper-b-table-3-analytic',
      'paper-b-table-2',
      'paper-b-table-3-models',
      'paper-b-table-3-exact',
    ]) {
      expect(existsSync(join(out, 'tables', `${id}.csv`)), id).toBe(true);
    }
    for (const id of [
      'paper-b-figure-1a',
      'paper-b-figure-1b',
      'paper-b-figure-2-analytic',
      'paper-b-figure-2-models',
    ]) {
      expect(existsSync(join(out, 'charts', `${id}.svg`)), id).toBe(true);
    }
    // 8 Table 2 cells per non-HateDay row (6 rows); the 4 CCD rows have no model: missing.
    // The fake COMPAS race matches N, n, N_min, n_min, Size and N_min/N exactly.
    expect(result.comparison.total).toBe(48);
    expect(result.comparison.missing).toBe(32);
    const comparison = readFileSync(join(out, 'comparison.csv'), 'utf8');
    expect(comparison).toMatch(/paper-b\/table2\/compas\/race\/candidate-set-size.*within/);
    // Every published Table 2 cell has a status; each that differs says why, naming both numbers.
    expect(result.cells).toHaveLength(56);
    const differing = result.cells.filter((cell) => cell.status === 'differs');
    expect(differing.length).toBeGreaterThan(0);
    for (const cell of differing) expect(cell.why, cell.id).toMatch(/ours .* against the published/);
    const hateday = result.cells.filter((cell) => cell.id.includes('/hateday/'));
    expect(hateday.map((cell) => cell.status)).toEqual(Array(8).fill('not reproduced'));
    expect(
      result.cells.filter((cell) => cell.id.includes('/ccd/')).every((cell) => /No CCD \w+ model/.test(cell.why)),
    ).toBe(true);
    expect(readFileSync(join(out, 'tables', 'paper-b-table-2.csv'), 'utf8')).toMatch(/HateDay.*published/);
    expect(readFileSync(result.reportPath, 'utf8')).toContain(
      'Table 2 rows CCD gender, CCD education, CCD marriage, CCD age not reproduced (no model)',
    );
    // Table 3 with the exact minimum: our two COMPAS rows computed, HateDay named as not computed.
    const exact = readFileSync(join(out, 'tables', 'paper-b-table-3-exact.md'), 'utf8');
    expect(exact).toMatch(/\| COMPAS \| gender \|/);
    expect(exact).toMatch(/\| HateDay \|.*not computed: no model of ours/);
    const layout = JSON.parse(readFileSync(join(out, 'report-layout.json'), 'utf8'));
    expect(
      layout.options.exactMinimum.map((row: { attribute: string; certified: boolean }) => [
        row.attribute,
        row.certified,
      ]),
    ).toEqual([
      ['gender', true],
      ['race', true],
    ]);
  });
});

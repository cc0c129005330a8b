import { describe, expect, it } from 'vitest';
import { publishedTable2 } from '../../../papers/paper-b/dataset-characteristics.js';
import { figure1Series } from '../../../papers/paper-b/figure-1.js';
import { figure2Series } from '../../../papers/paper-b/figure-2.js';
import { paperBTable3Options, table3Rows, table3SummaryTable } from '../../../papers/paper-b/table-3.js';

// Reference, computed in python3 from the published Table 2 cells (eps = d/2, delta = 0.2,
// q = 0.8): g = sqrt(2*log(4/0.2)/nmin); vanilla = ceil((d-eps)*nmin); respir =
// ceil(d*Nmin) since eps < g in every row (best effort); detection 1-(1-0.8*m/den)**k.
const expected: Record<string, { vanilla: number; respir: number; vanillaK5: number; respirK50: number }> = {
  'CCD gender': { vanilla: 38, respir: 150, vanillaK5: 0.0223, respirK50: 0.3601 },
  'CCD education': { vanilla: 27, respir: 107, vanillaK5: 0.0159, respirK50: 0.2724 },
  'CCD marriage': { vanilla: 14, respir: 56, vanillaK5: 0.0083, respirK50: 0.1531 },
  'CCD age': { vanilla: 34, respir: 134, vanillaK5: 0.02, respirK50: 0.3288 },
  'COMPAS gender': { vanilla: 20, respir: 79, vanillaK5: 0.0563, respirK50: 0.6836 },
  'COMPAS race': { vanilla: 39, respir: 156, vanillaK5: 0.1074, respirK50: 0.8996 },
  'HateDay language': { vanilla: 7, respir: 25, vanillaK5: 0.0015, respirK50: 0.0271 },
};

describe('publishedTable2()', () => {
  it('reads the seven printed rows of paper B Table 2 from papers/paper-b/published.json', () => {
    const rows = publishedTable2();
    expect(rows.map((row) => `${row.datasetLabel} ${row.attribute}`)).toEqual(Object.keys(expected));
    const compasRace = rows[5];
    expect(compasRace).toMatchObject({
      candidateSetSize: 2778,
      auditSetSize: 1389,
      candidateMinoritySize: 947,
      auditMinoritySize: 473,
      gap: 0.164,
    });
    for (const row of rows) {
      // the printed N_min/N agrees with N_min and N to its printed digits
      expect(Math.abs(row.candidateMinoritySize / row.candidateSetSize - row.minorityShare)).toBeLessThan(0.0051);
    }
  });
});

describe('table3Rows(publishedTable2(), paperBTable3Options)', () => {
  const rows = table3Rows(publishedTable2(), paperBTable3Options);
  it('gives the flips and detection probabilities computed by hand (Table 3 is an image in the text)', () => {
    for (const row of rows) {
      const key = `${row.characteristics.datasetLabel} ${row.characteristics.attribute}`;
      expect(row.bounds.vanilla.flips, key).toBe(expected[key].vanilla);
      expect(row.bounds.respir.flips, key).toBe(expected[key].respir);
      expect(row.bounds.vanilla.detection['5'], key).toBeCloseTo(expected[key].vanillaK5, 4);
      expect(row.bounds.respir.detection['50'], key).toBeCloseTo(expected[key].respirK50, 4);
    }
  });
  it('is best effort in every row: ε = |d|/2 < γ for all seven settings', () => {
    expect(rows.every((row) => row.bounds.respir.bestEffort && row.tolerance < row.bounds.details.margin)).toBe(true);
  });
  it('lays out as a SummaryTable with a column per audit and k', () => {
    const table = table3SummaryTable(rows, paperBTable3Options, 'paper-b-table-3', 'Table 3');
    expect(table.rows).toHaveLength(7);
    expect(table.columns.map((column) => column.name)).toContain('respir_detection_k50');
    expect(table.rows[0].respir_best_effort).toBe('yes');
  });
});

describe('figure1Series(paperBFigure1Options)', () => {
  const series = figure1Series();
  const flipsAt = (regime: string, audit: string, excess: number) =>
    series.flips.find(
      (p) => p.regime.startsWith(regime) && p.audit === audit && Math.abs(p.excess_gap - excess) < 1e-12,
    )!.flips;
  it('reproduces the §3.2 example: 2 vanilla flips hide 0.01 on a balanced 400-row audit set', () => {
    expect(flipsAt('balanced', 'vanilla', 0.01)).toBe(2);
    expect(flipsAt('balanced', 'vanilla', 0)).toBe(0);
  });
  it('gives respir ⌈(x + γ)·N_min⌉: 210 (balanced) and 94 (10%) at x = 0, 114 (10%) at x = 0.1', () => {
    // python3: sqrt(2 log 80 / 200)·1000 = 209.33; sqrt(2 log 80 / 40)·200 = 93.62; (0.1 + that)·200 = 113.62
    expect(flipsAt('balanced', 'respir', 0)).toBe(210);
    expect(flipsAt('unbalanced', 'respir', 0)).toBe(94);
    expect(flipsAt('unbalanced', 'respir', 0.1)).toBe(114);
  });
  it('has 2 regimes × 2 audits × 101 gaps flip points and 3 detection points for each', () => {
    expect(series.flips).toHaveLength(404);
    expect(series.detection).toHaveLength(1212);
    const point = series.detection.find(
      (p) => p.regime.startsWith('balanced') && p.audit === 'respir' && p.excess_gap === 0 && p.canaries === 5,
    )!;
    expect(point.detection).toBeCloseTo(0.3551222864394239, 12); // python3: 1-(1-0.8*210/2000)**5
  });
});

describe('figure2Series(rows, options)', () => {
  it('has a point per setting, audit and k, rising with k, respir above vanilla', () => {
    const points = figure2Series(table3Rows(publishedTable2()), paperBTable3Options);
    expect(points).toHaveLength(7 * 2 * 100);
    const race = points.filter((p) => p.setting === 'COMPAS race' && p.audit === 'respir');
    expect(race[49].detection).toBeCloseTo(0.8996, 4);
    for (let i = 1; i < race.length; i++) expect(race[i].detection).toBeGreaterThan(race[i - 1].detection);
    const vanillaRace = points.filter((p) => p.setting === 'COMPAS race' && p.audit === 'vanilla');
    expect(race.every((p, i) => p.detection > vanillaRace[i].detection)).toBe(true);
  });
});

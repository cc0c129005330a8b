import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDataset } from '../../src/data/load-dataset.js';
import { prepareSplit } from '../../src/data/prepare-split.js';
import { folderWithLinks, realDataMirror, sum } from './real-datasets.js';

const { mirror, reason } = realDataMirror('compas/compas-scores-two-years.csv');
if (mirror === null) console.warn(reason);

describe.skipIf(mirror === null)('loadDataset("compas") on the real mirror', () => {
  it('loadDataset("compas") applies ProPublica\'s filter to the raw 7,214 rows and keeps 6,172', async () => {
    const table = await loadDataset('compas', { dataDirectory: mirror as string });
    expect(table.form).toBe('propublica-raw');
    // 6,172 rows (paper B, Table 2); counts from compas/PROVENANCE.md (processed file):
    // two_year_recid = 1 in 2,809 rows, sex Female 1,175, race Caucasian 2,103.
    expect(table.rows).toBe(6172);
    expect(sum(table.label)).toBe(2809);
    expect(sum(table.protectedAttributes[0].group)).toBe(1175);
    expect(sum(table.protectedAttributes[1].group)).toBe(2103);
    expect(table.columns.map((column) => column.name)).toEqual([
      'decile_score',
      'days_b_screening_arrest',
      'priors_count',
      'sex',
      'score_text',
      'age',
      'race',
      'c_charge_degree',
    ]);
  });

  it('loadDataset("compas") from the mlr3fairness copy gives the same rows as the raw file', async () => {
    const raw = await loadDataset('compas', { dataDirectory: mirror as string });
    const folder = folderWithLinks([
      join(mirror as string, 'compas', 'compas-scores-two-years.mlr3fairness-processed.csv'),
    ]);
    const processed = await loadDataset('compas', { dataDirectory: folder, downloadsDirectory: folder });
    expect(processed.form).toBe('mlr3fairness-processed');
    expect(processed.rows).toBe(raw.rows);
    expect(Array.from(processed.label)).toEqual(Array.from(raw.label));
    const decile = (table: typeof raw) =>
      table.columns[0].kind === 'numeric' ? Array.from(table.columns[0].values) : [];
    expect(decile(processed)).toEqual(decile(raw));
  });

  it(
    "prepareSplit(compas, paper-b, race) gives Table 2's N = 2,778, n = 1,389, N_min = 947 and drops " + 'race',
    async () => {
      const table = await loadDataset('compas', { dataDirectory: mirror as string });
      const split = prepareSplit(table, { scheme: 'paper-b', seed: 7, protectedAttribute: 'race' });
      expect(split.heldOut.rows).toBe(2778);
      expect(split.auditRows?.length).toBe(1389);
      expect(sum(split.heldOut.group)).toBe(947); // Caucasian is the smaller group in C (Table 2, N_min)
      // n_min = 473 in Table 2; 947 / 2 = 473.5 ties, so scikit-learn's tie-break decides: 473 or 474.
      const auditGroup = Array.from(split.auditRows as Int32Array, (position) => split.heldOut.group[position]);
      expect([473, 474]).toContain(sum(auditGroup));
      expect(split.droppedColumns).toEqual(['race']);
      expect(split.train.featureNames.some((name) => name.startsWith('race'))).toBe(false);
    },
  );

  it('prepareSplit(compas, paper-b, gender) gives N_min = 529 (Table 2)', async () => {
    const table = await loadDataset('compas', { dataDirectory: mirror as string });
    const split = prepareSplit(table, { scheme: 'paper-b', seed: 7, protectedAttribute: 'gender' });
    expect(sum(split.heldOut.group)).toBe(529);
    expect(split.train.featureNames.some((name) => name.startsWith('sex'))).toBe(false);
    expect(split.train.featureNames.some((name) => name.startsWith('race'))).toBe(true);
  });
});

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDataset } from '../../src/data/load-dataset.js';
import { prepareSplit } from '../../src/data/prepare-split.js';
import { folderWithLinks, realDataMirror, sum } from './real-datasets.js';

const { mirror, reason } = realDataMirror('ccd/default of credit card clients.csv');
if (mirror === null) console.warn(reason);

describe.skipIf(mirror === null)('loadDataset("ccd") on the real mirror', () => {
  it('loadDataset("ccd") reads the two-header export: 30,000 rows, 6,636 defaults', async () => {
    const table = await loadDataset('ccd', { dataDirectory: mirror as string });
    expect(table.form).toBe('csv-two-headers');
    expect(table.rows).toBe(30000); // ccd/PROVENANCE.md
    expect(sum(table.label)).toBe(6636); // ccd/PROVENANCE.md: 6,636 defaults
    expect(sum(table.protectedAttributes[0].group)).toBe(18112); // SEX = 2: 18,112 (PROVENANCE.md)
    expect(table.columns).toHaveLength(23);
  });

  it('loadDataset("ccd") reads the single-header export to the same values', async () => {
    const twoHeaders = await loadDataset('ccd', { dataDirectory: mirror as string });
    const folder = folderWithLinks([join(mirror as string, 'ccd', 'default_of_credit_card_clients.single_header.csv')]);
    const singleHeader = await loadDataset('ccd', { dataDirectory: folder, downloadsDirectory: folder });
    expect(singleHeader.form).toBe('csv-single-header');
    expect(Array.from(singleHeader.label)).toEqual(Array.from(twoHeaders.label));
    const column = (table: typeof twoHeaders, k: number) => {
      const raw = table.columns[k];
      return raw.kind === 'numeric' ? Array.from(raw.values) : [];
    };
    for (const k of [0, 4, 22]) expect(column(singleHeader, k)).toEqual(column(twoHeaders, k));
  });

  it("prepareSplit(ccd, paper-b, protectedAttribute) gives Table 2's N, n and N_min per attribute", async () => {
    const table = await loadDataset('ccd', { dataDirectory: mirror as string });
    // Table 2 (paper B): N = 13,500, n = 6,750; N_min = 5,350 / 2,417 / 6,147 / 4,956 for
    // gender / education / marriage / age.
    const expected = { gender: 5350, education: 2417, marriage: 6147, age: 4956 } as const;
    for (const [attribute, smallest] of Object.entries(expected)) {
      const split = prepareSplit(table, { scheme: 'paper-b', seed: 1, protectedAttribute: attribute });
      expect(split.heldOut.rows).toBe(13500);
      expect(split.auditRows?.length).toBe(6750);
      const groupB = sum(split.heldOut.group);
      expect(Math.min(groupB, 13500 - groupB)).toBe(smallest);
      expect(split.train.columns).toBe(22); // the protected column is dropped
    }
  });
});

import { describe, expect, it } from 'vitest';
import { loadDataset } from '../../src/data/load-dataset.js';
import { prepareSplit } from '../../src/data/prepare-split.js';
import { realDataMirror } from './real-datasets.js';

const { mirror, reason } = realDataMirror('adult/adult.data', 'adult/adult.test');
if (mirror === null) console.warn(reason);

describe.skipIf(mirror === null)('loadDataset("adult") on the real mirror', () => {
  it('loadDataset("adult") keeps the 45,222 rows without "?" and verifies both files', async () => {
    const table = await loadDataset('adult', { dataDirectory: mirror as string });
    // 45,222: 30,162 complete rows of adult.data + 15,060 of adult.test (PROVENANCE.md counts
    // 2,399 and 1,221 rows with "?"; 32,561 − 2,399 + 16,281 − 1,221 = 45,222).
    expect(table.rows).toBe(45222);
    // 11,208 positives: `grep -v '?' adult.data adult.test | grep -c '>50K'` on the mirror.
    expect(table.label.reduce((sum, value) => sum + value, 0)).toBe(11208);
    expect(table.files.map((file) => file.check)).toEqual(['verified', 'verified']);
    expect(table.columns).toHaveLength(14);
  });

  it("prepareSplit(adult, paper-a) gives paper A's 3,362-row EO pool", async () => {
    const table = await loadDataset('adult', { dataDirectory: mirror as string });
    const split = prepareSplit(table, { scheme: 'paper-a', seed: 2026 });
    expect(split.heldOut.rows).toBe(13567); // ceil(0.3 × 45,222)
    let positives = 0;
    for (const value of split.heldOut.label) positives += value;
    expect(positives).toBe(3362); // paper A, Table 4 caption: min(B, N_{Y=1}) = 3362 for Adult
    expect(split.train.rows + split.heldOut.rows).toBe(45222);
  });
});

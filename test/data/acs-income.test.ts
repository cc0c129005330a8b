import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDataset } from '../../src/data/load-dataset.js';
import { InputError } from '../../src/util/errors.js';
import { acsFixture } from '../fixtures/acs-fixture.js';
import { zipArchive } from '../fixtures/zip-archive.js';
import { realDataMirror, sum } from './real-datasets.js';

const fixture = acsFixture(300, 2);

/** A mirror folder holding the given files under acs_income_ca_2018/, and an empty downloads folder. */
function mirrorWith(files: Record<string, string | Buffer>) {
  const root = mkdtempSync(join(tmpdir(), 'fairaudit-acs-'));
  const folder = join(root, 'mirror', 'acs_income_ca_2018');
  mkdirSync(folder, { recursive: true });
  for (const [name, content] of Object.entries(files)) writeFileSync(join(folder, name), content);
  return { dataDirectory: join(root, 'mirror'), downloadsDirectory: join(root, 'downloads') };
}

const column = (table: Awaited<ReturnType<typeof loadDataset>>, name: string) => {
  const found = table.columns.find((candidate) => candidate.name === name);
  if (found === undefined) throw new Error(`no column ${name}`);
  return found.kind === 'numeric' ? Array.from(found.values) : Array.from(found.codes, (code) => found.levels[code]);
};

describe('loadDataset("acs-income") on generated files', () => {
  it("loadDataset reads psam_p06.csv with folktables' filter and label, unverified but saying so", async () => {
    const table = await loadDataset('acs-income', mirrorWith({ 'psam_p06.csv': fixture.personFile }));
    expect(table.form).toBe('pums-csv');
    expect(table.rows).toBe(fixture.keptRows);
    expect(sum(table.label)).toBe(fixture.positives);
    expect(sum(table.protectedAttributes[0].group)).toBe(fixture.females);
    expect(table.files[0].check).toBe('unknown');
    expect(table.files[0].sha256).toMatch(/^[0-9a-f]{64}$/);
    // the edge cases come first: AGEP 17 kept (row 1), PINCP 101 kept (row 3), PINCP 50,000
    // is not > 50,000 (row 8), 50,001 is (row 9), an empty COW becomes −1 (row 10)
    expect(Array.from(table.rowIndex.slice(0, 5))).toEqual([1, 3, 8, 9, 10]);
    expect(Array.from(table.label.slice(0, 5))).toEqual([1, 0, 0, 1, 1]);
    expect(column(table, 'COW')[4]).toBe('-1');
    expect(column(table, 'OCCP')[0]).toBe(10); // "0010" read as the number 10
  });

  it('loadDataset reads psam_p06.csv out of csv_pca.zip to the same table', async () => {
    const fromCsv = await loadDataset('acs-income', mirrorWith({ 'psam_p06.csv': fixture.personFile }));
    const fromZip = await loadDataset('acs-income', mirrorWith({ 'csv_pca.zip': fixture.zip }));
    expect(fromZip.form).toBe('pums-zip');
    expect(Array.from(fromZip.label)).toEqual(Array.from(fromCsv.label));
    expect(column(fromZip, 'AGEP')).toEqual(column(fromCsv, 'AGEP'));
    expect(column(fromZip, 'RAC1P')).toEqual(column(fromCsv, 'RAC1P'));
  });

  it(
    'loadDataset reads a folktables export (features + labels) and the gzipped numpy CSV to the same ' + 'values',
    async () => {
      const fromCsv = await loadDataset('acs-income', mirrorWith({ 'psam_p06.csv': fixture.personFile }));
      // generated files cannot match the manifest's checksums of the published copies
      const fromExport = await loadDataset('acs-income', {
        ...mirrorWith({
          'acsincome_ca_features.csv': fixture.featuresFile,
          'acsincome_ca_labels.csv': fixture.labelsFile,
        }),
        verify: false,
      });
      const fromNumpy = await loadDataset('acs-income', {
        ...mirrorWith({ 'ACSIncome_CA_2018.csv.gz': fixture.numpyGzip }),
        verify: false,
      });
      expect(fromExport.form).toBe('folktables-export');
      expect(fromNumpy.form).toBe('folktables-numpy-gz');
      for (const table of [fromExport, fromNumpy]) {
        expect(Array.from(table.label)).toEqual(Array.from(fromCsv.label));
        for (const name of ['AGEP', 'SCHL', 'WKHP', 'POBP']) expect(column(table, name)).toEqual(column(fromCsv, name));
        expect(column(table, 'SEX')).toEqual(column(fromCsv, 'SEX'));
      }
    },
  );

  it("loadDataset rejects the published labels file's checksum on a generated one", async () => {
    const files = mirrorWith({
      'acsincome_ca_features.csv': fixture.featuresFile,
      'acsincome_ca_labels.csv': fixture.labelsFile,
    });
    await expect(loadDataset('acs-income', files)).rejects.toThrow(/acsincome_ca_labels\.csv: expected 1093660 bytes/);
  });

  it(
    'loadDataset with labels and group columns only (a partial mirror) says the features are missing and how to ' +
      'provide them',
    async () => {
      const files = mirrorWith({
        'acsincome_ca_labels.csv': fixture.labelsFile,
        'acsincome_ca_group_Sex.csv': 'SEX\n1\n',
      });
      const error = await loadDataset('acs-income', files).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InputError);
      const message = (error as Error).message;
      expect(message).toMatch(/dataset "acs-income" .* is incomplete/);
      expect(message).toMatch(
        /folktables-export: .*missing acsincome_ca_features\.csv \(found .*acsincome_ca_labels\.csv\)/,
      );
      expect(message).toMatch(/psam_p06\.csv/);
      expect(message).toMatch(/fairaudit data fetch acs-income/);
      expect(message).toMatch(/--data-dir DIR or FAIRAUDIT_DATA_DIR=DIR/);
    },
  );

  it('loadDataset names file and line for a PUMS row with the wrong field count', async () => {
    const lines = fixture.personFile.split('\n');
    lines[5] = lines[5].split(',').slice(0, 10).join(',');
    await expect(loadDataset('acs-income', mirrorWith({ 'psam_p06.csv': lines.join('\n') }))).rejects.toThrow(
      /psam_p06\.csv: line 6: expected 22 fields as in the header, found "10 fields"/,
    );
  });

  it('loadDataset names the zip and the member it lacks', async () => {
    const zip = zipArchive([{ name: 'psam_p07.csv', data: Buffer.from('x') }]);
    await expect(loadDataset('acs-income', mirrorWith({ 'csv_pca.zip': zip }))).rejects.toThrow(
      /csv_pca\.zip: expected a member named psam_p06\.csv, found "psam_p07\.csv"/,
    );
  });
});

const { mirror, reason } = realDataMirror('acs_income_ca_2018/acsincome_ca_labels.csv');
if (mirror === null) console.warn(reason);

describe.skipIf(mirror === null)('loadDataset("acs-income") on the real (partial) mirror', () => {
  it('loadDataset("acs-income") on the mirror is a clear "incomplete" error, not a crash', async () => {
    const root = mkdtempSync(join(tmpdir(), 'fairaudit-acs-downloads-'));
    await expect(
      loadDataset('acs-income', { dataDirectory: mirror as string, downloadsDirectory: root }),
    ).rejects.toThrow(/incomplete[\s\S]*missing acsincome_ca_features\.csv/);
  });
});

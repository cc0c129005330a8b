import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { type CsvRecord, readCsvStream } from '../../util/csv-reader.js';
import { inputError } from '../../util/errors.js';
import type { DatasetContents, DatasetDefinition } from '../dataset-definition.js';
import { categoricalColumn, numericColumn, type RawColumn } from '../dataset-table.js';
import { parseNumberField } from '../parse-number.js';
import type { LocatedForm } from '../resolve-form.js';
import { openZipEntry } from '../zip-entry.js';

/**
 * folktables' ACSIncome features, in its order. COW, MAR, RELP, SEX and RAC1P are
 * one-hot encoded; AGEP, SCHL (an ordered attainment scale), OCCP and POBP (codes with
 * hundreds of values, kept as numbers as folktables' df_to_numpy gives them) and WKHP
 * are numeric.
 */
const FEATURES = [
  ['AGEP', 'numeric'],
  ['COW', 'categorical'],
  ['SCHL', 'numeric'],
  ['MAR', 'categorical'],
  ['OCCP', 'numeric'],
  ['POBP', 'numeric'],
  ['RELP', 'categorical'],
  ['WKHP', 'numeric'],
  ['SEX', 'categorical'],
  ['RAC1P', 'categorical'],
] as const;
const SEX_COLUMN = 8;
const INCOME_THRESHOLD = 50000;

/** Collects feature values row by row and builds the table at the end. */
class AcsTableBuilder {
  readonly values: number[][] = FEATURES.map(() => []);
  readonly labels: number[] = [];
  readonly rowIndex: number[] = [];

  add(features: readonly number[], label: number, index: number): void {
    for (let k = 0; k < features.length; k++) this.values[k].push(features[k]);
    this.labels.push(label);
    this.rowIndex.push(index);
  }

  build(): DatasetContents {
    const columns: RawColumn[] = FEATURES.map(([name, kind], k) =>
      kind === 'numeric' ? numericColumn(name, this.values[k]) : categoricalColumn(name, this.values[k].map(String)),
    );
    return {
      rows: this.labels.length,
      columns,
      label: Uint8Array.from(this.labels),
      labelMeaning: 'PINCP > 50000 (total person income above $50,000)',
      protectedAttributes: [
        {
          name: 'sex',
          groupB: 'SEX = 2, female',
          sourceColumn: 'SEX',
          group: Uint8Array.from(this.values[SEX_COLUMN], (v) => (v === 2 ? 1 : 0)),
        },
      ],
      rowIndex: Int32Array.from(this.rowIndex),
    };
  }
}

/** Maps header names to positions; throws InputError naming the missing ones. */
function headerPositions(header: readonly string[], required: readonly string[], where: string): Map<string, number> {
  const positions = new Map<string, number>();
  header.forEach((name, column) => {
    const trimmed = name.trim();
    if (!positions.has(trimmed)) positions.set(trimmed, column);
  });
  const missing = required.filter((name) => !positions.has(name));
  if (missing.length > 0)
    throw inputError({ where, expected: `columns ${required.join(', ')}`, found: `no ${missing.join(', ')}` });
  return positions;
}

/** A PUMS value: empty means not applicable (NaN), as pandas reads it. */
function pumsValue(text: string, where: string): number {
  return text.trim() === '' ? Number.NaN : parseNumberField(text, where);
}

/**
 * readPums(stream, file) applies folktables' ACSIncome task to the PUMS person file:
 * keep AGEP > 16, PINCP > 100, WKHP > 0, PWGTP ≥ 1 (an empty value fails, as NaN does in
 * pandas), take the ten features (an empty feature becomes −1, as df_to_numpy's
 * nan_to_num(−1)), label PINCP > 50000. Row indices count the file's data rows.
 */
async function readPums(stream: Readable, file: string): Promise<DatasetContents> {
  const builder = new AcsTableBuilder();
  let positions: Map<string, number> | null = null;
  let width = 0;
  let rawRow = 0;
  const needed = [...FEATURES.map(([name]) => name), 'PINCP', 'PWGTP'];
  await readCsvStream(
    stream,
    ({ fields, line }: CsvRecord) => {
      const where = `${file}: line ${line}`;
      if (positions === null) {
        positions = headerPositions(fields, needed, `${where} (header)`);
        width = fields.length;
        const found = positions;
        return needed.map((name) => found.get(name) as number); // only these of the ~290 columns
      }
      if (fields.length !== width)
        throw inputError({ where, expected: `${width} fields as in the header`, found: `${fields.length} fields` });
      const index = rawRow++;
      const at = positions;
      const value = (name: string) => pumsValue(fields[at.get(name) as number], `${where}, column ${name}`);
      const age = value('AGEP');
      const income = value('PINCP');
      const hours = value('WKHP');
      const weight = value('PWGTP');
      if (!(age > 16 && income > 100 && hours > 0 && weight >= 1)) return;
      const features = FEATURES.map(([name]) => {
        const v = value(name);
        return Number.isNaN(v) ? -1 : v;
      });
      builder.add(features, income > INCOME_THRESHOLD ? 1 : 0, index);
    },
    { file },
  );
  if (positions === null)
    throw inputError({ where: file, expected: 'a header row and data rows', found: 'an empty file' });
  return builder.build();
}

/** Parses a label written True/False (pandas) or 1/0 (numpy). */
function parseLabel(text: string, where: string): number {
  const value = text.trim().toLowerCase();
  if (value === 'true' || value === '1' || value === '1.0') return 1;
  if (value === 'false' || value === '0' || value === '0.0') return 0;
  throw inputError({ where, expected: 'a label True/False or 1/0', found: text });
}

/** Reads a whole CSV into header + records (the exports are a few MB). */
async function readRecords(stream: Readable, file: string): Promise<CsvRecord[]> {
  const records: CsvRecord[] = [];
  await readCsvStream(stream, (record) => records.push(record), { file });
  if (records.length === 0)
    throw inputError({ where: file, expected: 'a header row and data rows', found: 'an empty file' });
  return records;
}

/**
 * readExport(featureRecords, labelRecords, ...) reads a folktables export: the ten
 * features by header name (an unnamed index column is ignored) and a label column
 * (`labelColumn`), either in the same file or in a file of its own, row for row.
 */
function readExport(
  featureRecords: CsvRecord[],
  featureFile: string,
  labelRecords: CsvRecord[],
  labelFile: string,
  labelColumns: readonly string[],
): DatasetContents {
  const builder = new AcsTableBuilder();
  const positions = headerPositions(
    featureRecords[0].fields,
    FEATURES.map(([name]) => name),
    `${featureFile}: line 1 (header)`,
  );
  const labelHeader = labelRecords[0].fields.map((name) => name.trim());
  const labelColumn = labelHeader.findIndex((name) => labelColumns.includes(name));
  if (labelColumn < 0) {
    throw inputError({
      where: `${labelFile}: line 1 (header)`,
      expected: `a label column ${labelColumns.join(' or ')}`,
      found: labelHeader.join(','),
    });
  }
  if (labelRecords.length !== featureRecords.length) {
    throw inputError({
      where: labelFile,
      expected: `as many rows as ${featureFile} (${featureRecords.length - 1})`,
      found: `${labelRecords.length - 1} rows`,
    });
  }
  const width = featureRecords[0].fields.length;
  for (let r = 1; r < featureRecords.length; r++) {
    const { fields, line } = featureRecords[r];
    const where = `${featureFile}: line ${line}`;
    if (fields.length !== width)
      throw inputError({ where, expected: `${width} fields as in the header`, found: `${fields.length} fields` });
    const features = FEATURES.map(([name]) =>
      parseNumberField(fields[positions.get(name) as number], `${where}, column ${name}`),
    );
    const labelRecord = labelRecords[r];
    const label = parseLabel(
      labelRecord.fields[labelColumn] ?? '',
      `${labelFile}: line ${labelRecord.line}, column ${labelHeader[labelColumn]}`,
    );
    builder.add(features, label, r - 1);
  }
  return builder.build();
}

/**
 * readAcsIncome(located) reads whichever form was found: the PUMS person file
 * psam_p06.csv (or csv_pca.zip holding it), a folktables export with features and
 * labels in two files, or a gzipped df_to_numpy CSV. Protected attribute sex, group b
 * = SEX 2 (female). Throws InputError naming the file and line on malformed input.
 * O(file size).
 */
async function readAcsIncome(located: LocatedForm): Promise<DatasetContents> {
  const path = (name: string) => located.paths.get(name) as string;
  switch (located.form.name) {
    case 'pums-csv':
      return readPums(createReadStream(path('psam_p06.csv'), { highWaterMark: 1 << 20 }), path('psam_p06.csv'));
    case 'pums-zip':
      return readPums(await openZipEntry(path('csv_pca.zip'), 'psam_p06.csv'), `${path('csv_pca.zip')}: psam_p06.csv`);
    case 'folktables-export': {
      const featureFile = path('acsincome_ca_features.csv');
      const labelFile = path('acsincome_ca_labels.csv');
      const features = await readRecords(createReadStream(featureFile), featureFile);
      const labels = await readRecords(createReadStream(labelFile), labelFile);
      return readExport(features, featureFile, labels, labelFile, ['PINCP', 'target', 'label']);
    }
    case 'folktables-numpy-gz': {
      const file = path('ACSIncome_CA_2018.csv.gz');
      const gunzip = createGunzip();
      const raw = createReadStream(file);
      raw.on('error', (error) => gunzip.destroy(error));
      const records = await readRecords(raw.pipe(gunzip), file);
      return readExport(records, file, records, file, ['target', 'PINCP', 'label']);
    }
    default:
      throw new Error(`readAcsIncome: no reader for form ${located.form.name}`);
  }
}

/** folktables ACSIncome, California 2018: paper A's first dataset. */
export const acsIncomeDataset: DatasetDefinition = {
  name: 'acs-income',
  summary: 'ACS Income CA 2018 (folktables ACSIncome): PINCP > 50000, protected sex; paper A',
  dropsProtectedColumn: false,
  read: readAcsIncome,
};

import { readCsvFile } from '../../util/csv-reader.js';
import { inputError } from '../../util/errors.js';
import type { DatasetContents, DatasetDefinition } from '../dataset-definition.js';
import { categoricalColumn, numericColumn, type RawColumn } from '../dataset-table.js';
import { parseNumberField } from '../parse-number.js';
import type { LocatedForm } from '../resolve-form.js';

/** Paper B's COMPAS features, in its order. */
const FEATURES = [
  ['decile_score', 'numeric'],
  ['days_b_screening_arrest', 'numeric'],
  ['priors_count', 'numeric'],
  ['sex', 'categorical'],
  ['score_text', 'categorical'],
  ['age', 'numeric'],
  ['race', 'categorical'],
  ['c_charge_degree', 'categorical'],
] as const;
/** Columns the filter and the label need besides the features. */
const REQUIRED = [...FEATURES.map(([name]) => name), 'is_recid', 'two_year_recid'];

/**
 * readCompas(located) reads ProPublica's compas-scores-two-years.csv (or mlr3fairness's
 * processed copy, to which the filter is a no-op) and applies ProPublica's filter:
 * −30 ≤ days_b_screening_arrest ≤ 30 (an empty value fails it), is_recid ≠ −1,
 * c_charge_degree ≠ "O", score_text ≠ "N/A". 7,214 raw rows give 6,172 (paper B's
 * Table 2). Duplicate header names (decile_score and priors_count appear twice in the
 * raw file, with equal values) resolve to their first column. Label two_year_recid.
 * Protected attributes: gender (group b: sex ≠ Male) and race (group b: race = Caucasian).
 * Throws InputError naming the file and line on a missing column, a wrong field count,
 * a bad number or a label other than 0/1. O(file size).
 */
async function readCompas(located: LocatedForm): Promise<DatasetContents> {
  const [fileName, path] = [...located.paths.entries()][0];
  let header: string[] | null = null;
  const position = new Map<string, number>();
  const numbers: number[][] = FEATURES.map(() => []);
  const strings: string[][] = FEATURES.map(() => []);
  const labels: number[] = [];
  const rowIndex: number[] = [];
  let rawRow = 0;
  await readCsvFile(path, ({ fields, line }) => {
    const where = `${path}: line ${line}`;
    if (header === null) {
      header = fields;
      fields.forEach((name, column) => {
        if (!position.has(name)) position.set(name, column);
      });
      const missing = REQUIRED.filter((name) => !position.has(name));
      if (missing.length > 0) {
        throw inputError({
          where: `${where} (header of ${fileName})`,
          expected: `columns ${REQUIRED.join(', ')}`,
          found: `no ${missing.join(', ')}`,
        });
      }
      return;
    }
    if (fields.length !== header.length) {
      throw inputError({
        where,
        expected: `${header.length} fields as in the header`,
        found: `${fields.length} fields`,
      });
    }
    const index = rawRow++;
    const field = (name: string) => fields[position.get(name) as number];
    const days = field('days_b_screening_arrest').trim();
    if (days === '') return; // pandas compares NaN as false: the filter drops the row
    const daysValue = parseNumberField(days, `${where}, column days_b_screening_arrest`);
    if (daysValue < -30 || daysValue > 30) return;
    if (parseNumberField(field('is_recid'), `${where}, column is_recid`) === -1) return;
    if (field('c_charge_degree') === 'O' || field('score_text') === 'N/A') return;
    const label = field('two_year_recid').trim();
    if (label !== '0' && label !== '1') {
      throw inputError({ where: `${where}, column two_year_recid`, expected: '0 or 1', found: label });
    }
    FEATURES.forEach(([name, kind], column) => {
      if (kind === 'numeric') numbers[column].push(parseNumberField(field(name), `${where}, column ${name}`));
      else strings[column].push(field(name));
    });
    labels.push(label === '1' ? 1 : 0);
    rowIndex.push(index);
  });
  if (header === null)
    throw inputError({ where: path, expected: 'a header row and data rows', found: 'an empty file' });
  const columns: RawColumn[] = FEATURES.map(([name, kind], column) =>
    kind === 'numeric' ? numericColumn(name, numbers[column]) : categoricalColumn(name, strings[column]),
  );
  const sex = strings[3];
  const race = strings[6];
  return {
    rows: labels.length,
    columns,
    label: Uint8Array.from(labels),
    labelMeaning: 'two_year_recid = 1 (reoffended within two years)',
    protectedAttributes: [
      {
        name: 'gender',
        groupB: 'sex ≠ Male',
        sourceColumn: 'sex',
        group: Uint8Array.from(sex, (value) => (value !== 'Male' ? 1 : 0)),
      },
      {
        name: 'race',
        groupB: 'race = Caucasian',
        sourceColumn: 'race',
        group: Uint8Array.from(race, (value) => (value === 'Caucasian' ? 1 : 0)),
      },
    ],
    rowIndex: Int32Array.from(rowIndex),
  };
}

/** ProPublica's COMPAS two-year recidivism data: paper B. */
export const compasDataset: DatasetDefinition = {
  name: 'compas',
  summary: 'COMPAS two-year recidivism (ProPublica): protected gender or race; paper B',
  dropsProtectedColumn: true,
  read: readCompas,
};

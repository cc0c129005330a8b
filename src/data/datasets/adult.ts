import { readCsvFile } from '../../util/csv-reader.js';
import { inputError } from '../../util/errors.js';
import type { DatasetContents, DatasetDefinition, ReadOptions } from '../dataset-definition.js';
import { categoricalColumn, numericColumn, type RawColumn } from '../dataset-table.js';
import { parseNumberField } from '../parse-number.js';
import type { LocatedForm } from '../resolve-form.js';

/** Adult's 15 columns, in file order (adult.names). */
const ADULT_COLUMNS = [
  ['age', 'numeric'],
  ['workclass', 'categorical'],
  ['fnlwgt', 'numeric'],
  ['education', 'categorical'],
  ['education-num', 'numeric'],
  ['marital-status', 'categorical'],
  ['occupation', 'categorical'],
  ['relationship', 'categorical'],
  ['race', 'categorical'],
  ['sex', 'categorical'],
  ['capital-gain', 'numeric'],
  ['capital-loss', 'numeric'],
  ['hours-per-week', 'numeric'],
  ['native-country', 'categorical'],
] as const;
const FIELD_COUNT = ADULT_COLUMNS.length + 1;

/** The income labels of adult.data; adult.test writes them with a trailing ".". */
function parseIncome(text: string, where: string): number {
  const value = text.endsWith('.') ? text.slice(0, -1) : text;
  if (value === '>50K') return 1;
  if (value === '<=50K') return 0;
  throw inputError({ where, expected: 'an income label ">50K" or "<=50K" (adult.test adds a ".")', found: text });
}

/**
 * readAdult(located, options) parses adult.data then adult.test (UCI layout: no header,
 * ", " separators, "?" for missing, adult.test's first line "|1x3 Cross validator",
 * its labels ending in "."). Rows with "?" are dropped unless dropMissing is false
 * (then "?" is a category of its own): 48,842 raw rows, 45,222 complete ones.
 * Label: income > 50K. Protected attribute sex, group b = Female.
 * Throws InputError naming the file and line on a wrong field count, a non-numeric
 * number or an unknown label. O(file size).
 */
async function readAdult(located: LocatedForm, options: ReadOptions): Promise<DatasetContents> {
  const dropMissing = options.dropMissing ?? true;
  const strings: string[][] = ADULT_COLUMNS.map(() => []);
  const numbers: number[][] = ADULT_COLUMNS.map(() => []);
  const labels: number[] = [];
  const rowIndex: number[] = [];
  let rawRow = 0;
  for (const fileName of ['adult.data', 'adult.test']) {
    const path = located.paths.get(fileName) as string;
    await readCsvFile(
      path,
      ({ fields, line }) => {
        if (fields.length === 1 && fields[0].startsWith('|')) return; // adult.test's "|1x3 Cross validator"
        const where = `${path}: line ${line}`;
        if (fields.length !== FIELD_COUNT) {
          throw inputError({
            where,
            expected: `${FIELD_COUNT} comma-separated fields`,
            found: `${fields.length} fields`,
          });
        }
        const index = rawRow++;
        if (dropMissing && fields.includes('?')) return;
        ADULT_COLUMNS.forEach(([name, kind], column) => {
          if (kind === 'numeric') numbers[column].push(parseNumberField(fields[column], `${where}, column ${name}`));
          else strings[column].push(fields[column]);
        });
        labels.push(parseIncome(fields[FIELD_COUNT - 1], `${where}, column income`));
        rowIndex.push(index);
      },
      { trimFields: true },
    );
  }
  const columns: RawColumn[] = ADULT_COLUMNS.map(([name, kind], column) =>
    kind === 'numeric' ? numericColumn(name, numbers[column]) : categoricalColumn(name, strings[column]),
  );
  const sex = strings[9];
  const group = new Uint8Array(sex.length);
  for (let i = 0; i < sex.length; i++) group[i] = sex[i] === 'Female' ? 1 : 0;
  return {
    rows: labels.length,
    columns,
    label: Uint8Array.from(labels),
    labelMeaning: 'income > 50K',
    protectedAttributes: [{ name: 'sex', groupB: 'sex = Female', sourceColumn: 'sex', group }],
    rowIndex: Int32Array.from(rowIndex),
  };
}

/** UCI Adult: paper A's second dataset. */
export const adultDataset: DatasetDefinition = {
  name: 'adult',
  summary: 'UCI Adult (Census Income): income > 50K, protected sex; paper A',
  dropsProtectedColumn: false,
  read: readAdult,
};

import { readCsvFile } from '../../util/csv-reader.js';
import { inputError } from '../../util/errors.js';
import type { DatasetContents, DatasetDefinition } from '../dataset-definition.js';
import { numericColumn } from '../dataset-table.js';
import { parseNumberField } from '../parse-number.js';
import type { LocatedForm } from '../resolve-form.js';

/** The UCI sheet's 23 features: X-name and column name (X6..X11 are PAY_0, PAY_2..PAY_6). */
const FEATURES: ReadonlyArray<readonly [string, string]> = [
  ['X1', 'LIMIT_BAL'],
  ['X2', 'SEX'],
  ['X3', 'EDUCATION'],
  ['X4', 'MARRIAGE'],
  ['X5', 'AGE'],
  ...['PAY_0', 'PAY_2', 'PAY_3', 'PAY_4', 'PAY_5', 'PAY_6'].map((name, i) => [`X${6 + i}`, name] as const),
  ...[1, 2, 3, 4, 5, 6].map((k, i) => [`X${12 + i}`, `BILL_AMT${k}`] as const),
  ...[1, 2, 3, 4, 5, 6].map((k, i) => [`X${18 + i}`, `PAY_AMT${k}`] as const),
];
const LABEL_NAMES = ['Y', 'default payment next month'];

/**
 * readCcd(located) reads a CSV export of the UCI "default of credit card clients"
 * sheet: one header row (X1..X23, Y or the column names) or both, a BOM and CRLF
 * tolerated, rows of ID, X1..X23, Y. All 23 features are numeric, as ucimlrepo gives
 * them to paper B's pipeline. Label Y ("default payment next month"). Protected
 * attributes (paper B, Table 2): gender (group b: SEX = 2), education (EDUCATION ≤ 2),
 * marriage (MARRIAGE ≠ 1), age (AGE > 30).
 * Throws InputError naming the file and line on a header without the columns, a wrong
 * field count, a non-number or a label other than 0/1. O(file size).
 */
async function readCcd(located: LocatedForm): Promise<DatasetContents> {
  const [fileName, path] = [...located.paths.entries()][0];
  /** Column position of each feature (0..22) and of the label (23), from the header rows. */
  const position: Array<number | undefined> = new Array(FEATURES.length + 1);
  let width = -1;
  let inHeader = true;
  const values: number[][] = FEATURES.map(() => []);
  const labels: number[] = [];
  const rowIndex: number[] = [];
  await readCsvFile(path, ({ fields, line }) => {
    const where = `${path}: line ${line}`;
    const trimmed = fields.map((field) => field.trim());
    if (inHeader && trimmed.some((field) => LABEL_NAMES.includes(field))) {
      trimmed.forEach((name, column) => {
        const feature = FEATURES.findIndex(([xName, longName]) => name === xName || name === longName);
        if (feature >= 0 && position[feature] === undefined) position[feature] = column;
        if (LABEL_NAMES.includes(name) && position[FEATURES.length] === undefined) position[FEATURES.length] = column;
      });
      width = Math.max(width, fields.length);
      return;
    }
    if (inHeader) {
      inHeader = false;
      const missing = [...FEATURES.map(([xName, longName]) => `${xName}/${longName}`), 'Y'].filter(
        (_, k) => position[k] === undefined,
      );
      if (width < 0 || missing.length > 0) {
        throw inputError({
          where: `${path} (header of ${fileName})`,
          expected: 'a header row naming X1..X23 and Y (or LIMIT_BAL..PAY_AMT6 and "default payment next month")',
          found: width < 0 ? `a first row without a header (line ${line})` : `no ${missing.join(', ')}`,
        });
      }
    }
    if (fields.length !== width) {
      throw inputError({ where, expected: `${width} fields as in the header`, found: `${fields.length} fields` });
    }
    FEATURES.forEach(([xName, longName], k) => {
      values[k].push(parseNumberField(fields[position[k] as number], `${where}, column ${xName} (${longName})`));
    });
    const label = trimmed[position[FEATURES.length] as number];
    if (label !== '0' && label !== '1') {
      throw inputError({
        where: `${where}, column Y`,
        expected: '0 or 1',
        found: fields[position[FEATURES.length] as number],
      });
    }
    labels.push(label === '1' ? 1 : 0);
    rowIndex.push(rowIndex.length);
  });
  if (inHeader) throw inputError({ where: path, expected: 'header rows and then data rows', found: 'no data rows' });
  const columns = FEATURES.map(([, longName], k) => numericColumn(longName, values[k]));
  const indicator = (k: number, test: (value: number) => boolean) =>
    Uint8Array.from(values[k], (value) => (test(value) ? 1 : 0));
  return {
    rows: labels.length,
    columns,
    label: Uint8Array.from(labels),
    labelMeaning: 'default payment next month = 1',
    protectedAttributes: [
      {
        name: 'gender',
        groupB: 'SEX (X2) = 2, female',
        sourceColumn: 'SEX',
        group: indicator(1, (value) => value === 2),
      },
      {
        name: 'education',
        groupB: 'EDUCATION (X3) ≤ 2',
        sourceColumn: 'EDUCATION',
        group: indicator(2, (value) => value <= 2),
      },
      {
        name: 'marriage',
        groupB: 'MARRIAGE (X4) ≠ 1',
        sourceColumn: 'MARRIAGE',
        group: indicator(3, (value) => value !== 1),
      },
      { name: 'age', groupB: 'AGE (X5) > 30', sourceColumn: 'AGE', group: indicator(4, (value) => value > 30) },
    ],
    rowIndex: Int32Array.from(rowIndex),
  };
}

/** UCI Default of Credit Card Clients: paper B. */
export const ccdDataset: DatasetDefinition = {
  name: 'ccd',
  summary: 'Default of Credit Card Clients (UCI, CSV export): protected gender, education, marriage or age; paper B',
  dropsProtectedColumn: true,
  read: readCcd,
};

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDataset } from '../../src/data/load-dataset.js';

const NAMES = [
  'ID',
  'LIMIT_BAL',
  'SEX',
  'EDUCATION',
  'MARRIAGE',
  'AGE',
  'PAY_0',
  'PAY_2',
  'PAY_3',
  'PAY_4',
  'PAY_5',
  'PAY_6',
  'BILL_AMT1',
  'BILL_AMT2',
  'BILL_AMT3',
  'BILL_AMT4',
  'BILL_AMT5',
  'BILL_AMT6',
  'PAY_AMT1',
  'PAY_AMT2',
  'PAY_AMT3',
  'PAY_AMT4',
  'PAY_AMT5',
  'PAY_AMT6',
  'default payment next month',
];
const X_HEADER = ['', ...Array.from({ length: 23 }, (_, i) => `X${i + 1}`), 'Y'];

/** Generated rows in the UCI sheet's layout: ID, X1..X23, Y. */
function rows(count: number, label = (i: number) => String(i % 4 === 0 ? 1 : 0)): string[] {
  return Array.from({ length: count }, (_, i) =>
    [
      String(i + 1),
      '20000',
      String(1 + (i % 2)),
      String(1 + (i % 4)),
      String(1 + (i % 3)),
      String(24 + i),
      ...Array(18).fill('0'),
      label(i),
    ].join(','),
  );
}

function mirror(name: string, text: string) {
  const folder = mkdtempSync(join(tmpdir(), 'fairaudit-ccd-'));
  writeFileSync(join(folder, name), text);
  return { dataDirectory: folder, downloadsDirectory: folder, verify: false };
}

describe('loadDataset("ccd") on generated CSV exports', () => {
  it('loadDataset reads both header rows, a BOM and CRLF, and no final line break', async () => {
    const text = `\uFEFF${X_HEADER.join(',')}\r\n${NAMES.join(',')}\r\n${rows(8).join('\r\n')}`;
    const table = await loadDataset('ccd', mirror('default of credit card clients.csv', text));
    expect(table.rows).toBe(8);
    expect(Array.from(table.label)).toEqual([1, 0, 0, 0, 1, 0, 0, 0]);
    // protected attributes of paper B: SEX = 2; EDUCATION <= 2; MARRIAGE != 1; AGE > 30
    const groups = Object.fromEntries(table.protectedAttributes.map((a) => [a.name, Array.from(a.group)]));
    expect(groups.gender).toEqual([0, 1, 0, 1, 0, 1, 0, 1]);
    expect(groups.education).toEqual([1, 1, 0, 0, 1, 1, 0, 0]);
    expect(groups.marriage).toEqual([0, 1, 1, 0, 1, 1, 0, 1]);
    expect(groups.age).toEqual([0, 0, 0, 0, 0, 0, 0, 1]); // AGE 24..31
  });

  it('loadDataset reads an X-only header (X1..X23, Y) too', async () => {
    const text = `${X_HEADER.join(',')}\n${rows(3).join('\n')}\n`;
    expect((await loadDataset('ccd', mirror('default_of_credit_card_clients.single_header.csv', text))).rows).toBe(3);
  });

  it('loadDataset names file, line and column for a label other than 0/1', async () => {
    const text = `${NAMES.join(',')}\r\n${rows(5, (i) => (i === 3 ? 'yes' : '0')).join('\r\n')}\r\n`;
    await expect(loadDataset('ccd', mirror('default_of_credit_card_clients.single_header.csv', text))).rejects.toThrow(
      /single_header\.csv: line 5, column Y: expected 0 or 1, found "yes"/,
    );
  });

  it('loadDataset names file and line for a truncated last row', async () => {
    const text = `${NAMES.join(',')}\r\n${rows(5).join('\r\n')}`.slice(0, -30);
    await expect(loadDataset('ccd', mirror('default_of_credit_card_clients.single_header.csv', text))).rejects.toThrow(
      /single_header\.csv: line 6: expected 25 fields as in the header/,
    );
  });

  it('loadDataset rejects a file without the header rows', async () => {
    await expect(
      loadDataset('ccd', mirror('default_of_credit_card_clients.single_header.csv', rows(3).join('\n'))),
    ).rejects.toThrow(/expected a header row naming X1\.\.X23 and Y/);
  });

  it('loadDataset with only the .xls says fairaudit cannot read it', async () => {
    await expect(loadDataset('ccd', mirror('default of credit card clients.xls', 'binary'))).rejects.toThrow(
      /uci-xls: .*found, but fairaudit cannot read this form/,
    );
  });
});

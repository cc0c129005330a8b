import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Table, tableToIPC, Utf8, vectorFromArray } from 'apache-arrow';
import { afterAll, describe, expect, it } from 'vitest';
import { readPoolFile } from '../../src/audit/pool-io.js';
import { InputError } from '../../src/util/errors.js';

const folder = mkdtempSync(join(tmpdir(), 'fairaudit-pool-cells-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function csvPool(name: string, text: string): string {
  const path = join(folder, name);
  writeFileSync(path, text);
  return path;
}

// JavaScript's Number() also reads hexadecimal, binary and octal literals ("0x1" is 1,
// "0b1" is 1, "0o7" is 7); a pool cell holds a plain decimal number, so these are bad input.
describe('readPoolFile(path) on CSV cells that are not decimal numbers', () => {
  it.each([
    ['decision', 'group,label,decision\n0,1,0x1\n1,1,0\n'],
    ['label', 'group,label,decision\n0,0o1,1\n1,1,0\n'],
    ['score', 'group,label,decision,score\n0,1,1,0x0\n1,1,0,0.5\n'],
    ['logit', 'group,label,decision,logit\n0,1,1,0x10\n1,1,0,2\n'],
    ['id', 'id,group,label,decision\n0x7,0,1,1\n8,1,1,0\n'],
  ])('readPoolFile(path) rejects a non-decimal %s cell, naming file, row and column', (column, text) => {
    const path = csvPool(`non-decimal-${column}.csv`, text);
    expect(() => readPoolFile(path)).toThrow(InputError);
    expect(() => readPoolFile(path)).toThrow(new RegExp(`row 1 \\(line 2\\), column "${column}"`));
  });

  it('readPoolFile(path) reads a non-decimal group cell as a name, never as the number it spells', () => {
    const pool = readPoolFile(csvPool('non-decimal-group.csv', 'group,label,decision\n0b1,1,1\n0,1,0\n'));
    expect(pool.groupNames).toEqual(['0', '0b1']);
    expect(Array.from(pool.group)).toEqual([1, 0]);
  });

  it('readPoolFile(path) still reads decimal forms: signs, exponents, a leading or trailing point', () => {
    const path = csvPool('decimal-forms.csv', 'group,label,decision,score,logit\n0,1,1,.5,-1.5e0\n1,1.0,0,1E-1,+2.\n');
    const pool = readPoolFile(path);
    expect(Array.from(pool.score ?? [])).toEqual([0.5, 0.1]);
    expect(Array.from(pool.logit ?? [])).toEqual([-1.5, 2]);
    expect(Array.from(pool.label)).toEqual([1, 1]);
  });
});

// An Arrow pool may store a column as text (utf8); Number("") and Number(" ") are 0, so
// an empty decision cell was read as decision 0 instead of being reported.
describe('readPoolFile(path) on Arrow text (utf8) columns', () => {
  function arrowPool(name: string, decision: string[]): string {
    const path = join(folder, name);
    const table = new Table({
      group: vectorFromArray(['0', '1'], new Utf8()),
      label: vectorFromArray(['1', '1'], new Utf8()),
      decision: vectorFromArray(decision, new Utf8()),
    });
    writeFileSync(path, tableToIPC(table, 'file'));
    return path;
  }

  it('readPoolFile(arrow) reads decimal text cells as numbers', () => {
    const pool = readPoolFile(arrowPool('text-ok.arrow', ['1', '0']));
    expect(Array.from(pool.group)).toEqual([0, 1]);
    expect(Array.from(pool.decision)).toEqual([1, 0]);
  });

  it.each([
    ['empty', ''],
    ['blank', ' '],
    ['hexadecimal', '0x1'],
  ])('readPoolFile(arrow) rejects an %s text cell naming row and column', (_kind, cell) => {
    const path = arrowPool(`text-${_kind}.arrow`, ['1', cell]);
    expect(() => readPoolFile(path)).toThrow(InputError);
    expect(() => readPoolFile(path)).toThrow(/row 2, column "decision"/);
  });
});

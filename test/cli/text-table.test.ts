import { describe, expect, it } from 'vitest';
import { textTable } from '../../src/cli/text-table.js';

describe('textTable(header, rows)', () => {
  it('pads each column to its widest cell, two spaces apart, and trims the line ends', () => {
    expect(
      textTable(
        ['cell', 'n'],
        [
          ['1', '12345'],
          ['10', '6'],
        ],
      ),
    ).toEqual(['cell  n', '1     12345', '10    6']);
  });

  it('gives only the header line for no rows', () => {
    expect(textTable(['a', 'bb'], [])).toEqual(['a  bb']);
  });
});

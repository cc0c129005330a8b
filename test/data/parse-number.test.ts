import { describe, expect, it } from 'vitest';
import { parseNumberField } from '../../src/data/parse-number.js';
import { InputError } from '../../src/util/errors.js';

describe('parseNumberField(text, where)', () => {
  it('parseNumberField(text) reads decimal numbers with blanks, signs, exponents and a bare point', () => {
    expect(parseNumberField('39', 'f')).toBe(39);
    expect(parseNumberField(' -1.5 ', 'f')).toBe(-1.5);
    expect(parseNumberField('1e3', 'f')).toBe(1000);
    expect(parseNumberField('2.5E-1', 'f')).toBe(0.25);
    expect(parseNumberField('+2', 'f')).toBe(2);
    expect(parseNumberField('.5', 'f')).toBe(0.5);
    expect(parseNumberField('5.', 'f')).toBe(5);
  });

  // Number("0x10") is 16 and Number("0b1") is 1 in JavaScript: a data file's "0x10" is
  // not the decimal number it should hold, so it must be reported, not read as 16.
  it.each(['0x10', '0b1', '0o7', 'Infinity', '-Infinity', 'NaN', '', '1,5', '1.2.3'])(
    'parseNumberField(%j) throws InputError naming where',
    (text) => {
      expect(() => parseNumberField(text, 'adult.data: line 3, column age')).toThrow(InputError);
      expect(() => parseNumberField(text, 'adult.data: line 3, column age')).toThrow(/adult\.data: line 3, column age/);
    },
  );
});

import { describe, expect, it } from 'vitest';
import { bernoulliGlrKernel } from '../../src/stats/bernoulli-glr.js';
import { evaluateGlrCase } from '../../src/stats/glr-case.js';
import { InputError } from '../../src/util/errors.js';

const where = (field: string) => `cases.jsonl: line 1, field "${field}"`;

describe('evaluateGlrCase(family, fields, where) on numeric strings', () => {
  it('evaluateGlrCase("bernoulli", decimal strings) equals the kernel on the numbers', () => {
    const fields = { n_a: '16', s_a: '4', n_b: '1.6e1', s_b: ' 12 ', tolerance: '.05' };
    expect(evaluateGlrCase('bernoulli', fields, where)).toBe(bernoulliGlrKernel(16, 4, 16, 12, 0.05));
  });

  // Number("0x10") is 16 in JavaScript; a case field written "0x10" is not a decimal number.
  it.each([
    ['n_a', '0x10'],
    ['s_b', '0b1'],
  ])('evaluateGlrCase("bernoulli") rejects %s = %j naming the field', (field, text) => {
    const fields: Record<string, unknown> = {
      n_a: '16',
      s_a: '4',
      n_b: '16',
      s_b: '12',
      tolerance: '0.05',
      [field]: text,
    };
    expect(() => evaluateGlrCase('bernoulli', fields, where)).toThrow(InputError);
    expect(() => evaluateGlrCase('bernoulli', fields, where)).toThrow(new RegExp(`field "${field}"`));
  });
});

import { describe, expect, it } from 'vitest';
import { checkThresholds, sequentialThresholds, thresholdsProblem } from '../../src/stats/thresholds.js';
import { InputError } from '../../src/util/errors.js';

describe('sequentialThresholds(alpha, beta)', () => {
  it('sequentialThresholds(0.05, 0.2) is {upper: 2.7726, lower: -1.5581} (paper A section 3.5)', () => {
    const { upper, lower } = sequentialThresholds(0.05, 0.2);
    // python3 -c "import math; print(math.log(0.8/0.05), math.log(0.2/0.95))"
    expect(upper).toBe(2.772588722239781);
    expect(lower).toBe(-1.5581446180465497);
    expect(upper.toFixed(4)).toBe('2.7726');
    expect(lower.toFixed(4)).toBe('-1.5581');
  });

  it('sequentialThresholds(alpha, beta) throws InputError outside (0, 1) or when alpha + beta >= 1', () => {
    expect(() => sequentialThresholds(0, 0.2)).toThrow(InputError);
    expect(() => sequentialThresholds(0.05, 1)).toThrow(/beta/);
    expect(() => sequentialThresholds(Number.NaN, 0.2)).toThrow(/alpha/);
    expect(() => sequentialThresholds(0.6, 0.5)).toThrow(/alpha \+ beta/);
  });
});

describe('checkThresholds(thresholds, where)', () => {
  it('accepts upper > 0 > lower and throws InputError naming the setting otherwise', () => {
    expect(() => checkThresholds({ upper: 4.9, lower: -2.4 })).not.toThrow();
    expect(() => checkThresholds({ upper: -1, lower: 2 }, 'thresholds')).toThrow(
      /thresholds: expected upper greater than lower, found \{"upper":-1,"lower":2\}/,
    );
    expect(() => checkThresholds({ upper: 2, lower: 2 })).toThrow(InputError);
    expect(() => checkThresholds({ upper: 2, lower: 0.5 }, '--lower')).toThrow(/--lower: lower: expected a number < 0/);
    expect(() => checkThresholds({ upper: Number.NaN, lower: -1 })).toThrow(/upper: expected a finite number/);
  });
});

describe('thresholdsProblem(thresholds)', () => {
  it('is undefined for finite upper > 0 > lower and names the key otherwise', () => {
    expect(thresholdsProblem({ upper: 4.9, lower: -2.4 })).toBeUndefined();
    expect(thresholdsProblem({ upper: 1, lower: 2 })).toEqual({
      key: '',
      expected: 'upper greater than lower',
      found: { upper: 1, lower: 2 },
    });
    expect(thresholdsProblem({ upper: -1, lower: -2 })?.key).toBe('upper');
    expect(thresholdsProblem({ upper: 2, lower: 0 })?.key).toBe('lower');
    expect(thresholdsProblem({ upper: Number.POSITIVE_INFINITY, lower: -1 })?.expected).toBe('a finite number');
  });
});

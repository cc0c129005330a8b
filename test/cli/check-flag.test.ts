import { describe, expect, it } from 'vitest';
import { checkIntegerFlag, checkNumberFlag, checkProbabilityFlag } from '../../src/cli/check-flag.js';
import { InputError } from '../../src/util/errors.js';

describe('checkIntegerFlag(flag, value, low, high)', () => {
  it('returns an integer inside [low, high], both ends included', () => {
    expect(checkIntegerFlag('--port', 0, 0, 65535)).toBe(0);
    expect(checkIntegerFlag('--port', 65535, 0, 65535)).toBe(65535);
  });

  it('throws an InputError naming the flag, the range and what was found', () => {
    expect(() => checkIntegerFlag('--max-batch', 0, 1, 4096)).toThrow(InputError);
    expect(() => checkIntegerFlag('--max-batch', 0, 1, 4096)).toThrow(
      '--max-batch: expected an integer in [1, 4096], found 0',
    );
    expect(() => checkIntegerFlag('--max-batch', 4097, 1, 4096)).toThrow(/found 4097/);
    expect(() => checkIntegerFlag('--max-batch', 2.5, 1, 4096)).toThrow(/found 2\.5/);
  });

  it('without high, accepts any integer ≥ low and says so', () => {
    expect(checkIntegerFlag('--draws', 1e9, 100)).toBe(1e9);
    expect(() => checkIntegerFlag('--draws', 99, 100)).toThrow('--draws: expected an integer ≥ 100, found 99');
  });

  it('rejects NaN (what yargs makes of --flag abc) and infinities', () => {
    expect(() => checkIntegerFlag('--threads', Number.NaN, 1, 1024)).toThrow(
      '--threads: expected an integer in [1, 1024], found NaN',
    );
    expect(() => checkIntegerFlag('--draws', Number.POSITIVE_INFINITY, 100)).toThrow(/found Infinity/);
  });
});

describe('checkNumberFlag(flag, value, range, noun)', () => {
  it('honours open and closed ends', () => {
    const seconds = { low: 0, high: 86_400, lowOpen: true };
    expect(checkNumberFlag('--idle-timeout', 86_400, seconds, 'seconds')).toBe(86_400);
    expect(checkNumberFlag('--idle-timeout', 0.5, seconds, 'seconds')).toBe(0.5);
    expect(() => checkNumberFlag('--idle-timeout', 0, seconds, 'seconds')).toThrow(
      '--idle-timeout: expected seconds in (0, 86400], found 0',
    );
    expect(checkNumberFlag('--hide-fraction', 0, { low: 0, high: 1 })).toBe(0);
    expect(checkNumberFlag('--hide-fraction', 1, { low: 0, high: 1 })).toBe(1);
    expect(() => checkNumberFlag('--hide-fraction', 1.01, { low: 0, high: 1 })).toThrow(
      '--hide-fraction: expected a number in [0, 1], found 1.01',
    );
  });

  it('rejects NaN with any range', () => {
    expect(() =>
      checkNumberFlag('--gap', Number.NaN, { low: Number.NEGATIVE_INFINITY, high: Number.POSITIVE_INFINITY }),
    ).toThrow(/--gap: .*found NaN/);
  });
});

describe('checkProbabilityFlag(flag, value)', () => {
  it('accepts values strictly between 0 and 1 and names the flag otherwise', () => {
    expect(checkProbabilityFlag('--tolerance', 0.05)).toBe(0.05);
    for (const bad of [0, 1, 1.5, -0.1, Number.NaN]) {
      expect(() => checkProbabilityFlag('--tolerance', bad)).toThrow(
        /^--tolerance: expected a number in \(0, 1\), found /,
      );
    }
  });
});

import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkIntegerFlag, checkNumberFlag, checkProbabilityFlag, checkSetKeys } from '../../src/cli/check-flag.js';
import { runCliInProcess } from '../helpers/cli.js';
import { InputError } from '../../src/util/errors.js';

describe('checkIntegerFlag(flag, value, low, high)', () => {
  it('returns an integer inside [low, high], both ends included', () => {
    expect(checkIntegerFlag('--port', 0, 0, 65535)).toBe(0);
    expect(checkIntegerFlag('--port', 65535, 0, 65535)).toBe(65535);
  });

  it('throws an InputError naming the flag, the range and what was found', () => {
    expect(() => checkIntegerFlag('--max-batch', 0, 1, 4096)).toThrow(InputError);
    expect(() => checkIntegerFlag('--max-batch', 0, 1, 4096)).toThrow('--max-batch: expected an integer in [1, 4096], found 0');
    expect(() => checkIntegerFlag('--max-batch', 4097, 1, 4096)).toThrow(/found 4097/);
    expect(() => checkIntegerFlag('--max-batch', 2.5, 1, 4096)).toThrow(/found 2\.5/);
  });

  it('without high, accepts any integer ≥ low and says so', () => {
    expect(checkIntegerFlag('--draws', 1e9, 100)).toBe(1e9);
    expect(() => checkIntegerFlag('--draws', 99, 100)).toThrow('--draws: expected an integer ≥ 100, found 99');
  });

  it('rejects NaN (what yargs makes of --flag abc) and infinities', () => {
    expect(() => checkIntegerFlag('--threads', Number.NaN, 1, 1024)).toThrow('--threads: expected an integer in [1, 1024], found NaN');
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
    expect(() => checkNumberFlag('--gap', Number.NaN, { low: Number.NEGATIVE_INFINITY, high: Number.POSITIVE_INFINITY })).toThrow(
      /--gap: .*found NaN/,
    );
  });
});

describe('checkProbabilityFlag(flag, value)', () => {
  it('accepts values strictly between 0 and 1 and names the flag otherwise', () => {
    expect(checkProbabilityFlag('--tolerance', 0.05)).toBe(0.05);
    for (const bad of [0, 1, 1.5, -0.1, Number.NaN]) {
      expect(() => checkProbabilityFlag('--tolerance', bad)).toThrow(/^--tolerance: expected a number in \(0, 1\), found /);
    }
  });
});

describe('checkSetKeys(flags)', () => {
  it('returns ordinary --set flags as they are, and none for undefined', () => {
    expect(checkSetKeys(['budget=2000', 'grid.tolerance=[0.02, 0.05]', 'pool.synthetic.size=5000'])).toEqual([
      'budget=2000',
      'grid.tolerance=[0.02, 0.05]',
      'pool.synthetic.size=5000',
    ]);
    expect(checkSetKeys(undefined)).toEqual([]);
  });

  it('refuses __proto__, constructor and prototype anywhere in the key, naming the flag and key path', () => {
    expect(() => checkSetKeys(['__proto__.outDirectory=/tmp/x'])).toThrow(
      '--set __proto__.outDirectory=/tmp/x: __proto__: expected a setting key, found the reserved key "__proto__" (__proto__, constructor and prototype are refused)',
    );
    expect(() => checkSetKeys(['budget=1', 'settings.constructor.prototype.x=1'])).toThrow(/--set settings\.constructor\.prototype\.x=1: settings\.constructor: /);
    expect(() => checkSetKeys(['grid.prototype=[1]'])).toThrow(/grid\.prototype: expected a setting key/);
  });
});

describe('fairaudit run CONFIG --set __proto__.outDirectory=DIR (issue 13)', () => {
  it('exits 2 naming the flag; DIR is not written and Object.prototype stays clean (the run was redirected there before)', async () => {
    const target = join(mkdtempSync(join(tmpdir(), 'fairaudit-proto-')), 'redirected');
    const { code, stderr } = await runCliInProcess(['run', 'configs/quickstart.yaml', '--set', 'replicates=1', '--set', `__proto__.outDirectory=${target}`]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^fairaudit: --set __proto__\.outDirectory=.*: __proto__: expected a setting key, found the reserved key "__proto__"/);
    expect(existsSync(target)).toBe(false);
    expect((Object.prototype as Record<string, unknown>).outDirectory).toBeUndefined();
  });
});

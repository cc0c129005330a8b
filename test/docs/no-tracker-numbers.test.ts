import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/util/paths.js';

/**
 * A reader of the product has no tracker: code, configs, docs, scripts, tests and
 * their file names name work by what it is, never by an issue number.
 */
const TRACKED = ['src', 'papers', 'configs', 'docs', 'scripts', 'test', 'examples', 'README.md', 'Makefile'];

/** The word "issue" (or "issues"), a space and a number: a tracker reference in text. */
const TRACKER_NUMBER = /\bissues? \d+/i;

/** The word "issue", an optional separator and a number in a file name (a script named after a tracker entry). */
const TRACKER_NUMBER_IN_NAME = /issues?[ _-]?\d+/i;

const root = packageRoot();

function filesUnder(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path).flatMap((name) => filesUnder(join(path, name)));
}

const files = TRACKED.flatMap((entry) => filesUnder(join(root, entry))).filter(
  (file) => !/\.(png|arrow|bin|wasm|npy|parquet|zip|gz)$/.test(file),
);

describe('no tracker numbers in the product', () => {
  it('scans the product (a scan of nothing would pass vacuously)', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.some((file) => file.endsWith('README.md'))).toBe(true);
  });

  it('no file name holds one', () => {
    const named = files.map((file) => relative(root, file)).filter((file) => TRACKER_NUMBER_IN_NAME.test(file));
    expect(named).toEqual([]);
  });

  it('no line of src/, papers/, configs/, docs/, scripts/, test/, examples/ or README.md holds one', () => {
    const found: string[] = [];
    for (const file of files) {
      const lines = readFileSync(file, 'utf8').split('\n');
      lines.forEach((line, index) => {
        if (TRACKER_NUMBER.test(line)) found.push(`${relative(root, file)}:${index + 1}: ${line.trim().slice(0, 120)}`);
      });
    }
    expect(found).toEqual([]);
  });

  it('the pattern catches what it is meant to catch', () => {
    // Built from parts, so that this file holds no tracker reference itself.
    const word = ['iss', 'ue'].join('');
    for (const text of [`(${word} 11)`, `${word.toUpperCase()} 13: read`, `${word}s 14 and 13`]) {
      expect(TRACKER_NUMBER.test(text), text).toBe(true);
    }
    for (const name of [`scripts/${word}-11-bars.sh`, `scripts/compare-snapshots-${word}13.py`]) {
      expect(TRACKER_NUMBER_IN_NAME.test(name), name).toBe(true);
    }
    for (const text of [`an ${word} with 3 rows`, `t${word}-4`, `the ${word} of sizes`]) {
      expect(TRACKER_NUMBER.test(text), text).toBe(false);
    }
  });
});

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/util/paths.js';

/**
 * A reader of the product has no tracker: code, configs, docs, scripts, tests and
 * their file names name work by what it is, never by an issue number.
 */
const TRACKED = ['src', 'papers', 'configs', 'docs', 'scripts', 'test', 'examples', 'README.md', 'Makefile'];

/** "issue 11", "Issue 13", "issues 14 and 13": a tracker reference in text. */
const TRACKER_NUMBER = /\bissues? \d+/i;

/** "issue-11-bars.sh", "compare_issue13.py": a tracker reference in a file name. */
const TRACKER_NUMBER_IN_NAME = /issues?[ _-]?\d+/i;

const root = packageRoot();

function filesUnder(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path).flatMap((name) => filesUnder(join(path, name)));
}

/** This file, whose examples of the pattern are meant to match it. */
const SELF = join('test', 'docs', 'no-tracker-numbers.test.ts');

const files = TRACKED.flatMap((entry) => filesUnder(join(root, entry))).filter(
  (file) => !/\.(png|arrow|bin|wasm|npy|parquet|zip|gz)$/.test(file) && relative(root, file) !== SELF,
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
    for (const text of ['(issue 11)', 'Issue 13: read', 'issues 14 and 13']) {
      expect(TRACKER_NUMBER.test(text), text).toBe(true);
    }
    for (const name of ['scripts/issue-11-bars.sh', 'scripts/compare-snapshots-issue13.py']) {
      expect(TRACKER_NUMBER_IN_NAME.test(name), name).toBe(true);
    }
    for (const text of ['an issue with 3 rows', 'tissue 4', 'the issue of sizes']) {
      expect(TRACKER_NUMBER.test(text), text).toBe(false);
    }
  });
});

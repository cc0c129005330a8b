import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../../src/util/paths.js';
import { spawnCliSync } from '../../helpers/cli.js';

// Every `fairaudit bench` command at a tiny size, through the built CLI as `make bench`
// runs it: each must exit 0 and print its figures as JSON (a crash such as bench
// paper-a's reading of a context it was not given fails here, not at make bench's last line).
const tinyBenches: [string, string[], string][] = [
  ['glr', ['--updates', '20000', '--runs', '1'], 'bernoulli'],
  ['runner', ['--replicates', '100'], 'runner'],
  ['runner', ['--dry', '--replicates', '100'], 'runnerDry'],
  ['pir', ['--log-n', '10', '--repetitions', '1'], 'entries'],
  ['respir', ['--draws', '100', '--threads', '1', '--no-exact'], 'respir'],
  ['calibrate', ['--paths', '400', '--threads', '1', '--groups', '400,300'], 'calibrate'],
  ['paper-a', ['--replicates', '1'], 'paper-a'],
];

/** The figures a bench printed: one JSON document, or the first of JSON lines (bench pir prints one per size). */
function firstFigures(stdout: string): Record<string, unknown> {
  try {
    return JSON.parse(stdout);
  } catch {
    return JSON.parse(stdout.trim().split('\n')[0]);
  }
}

describe('fairaudit bench <what> --json at tiny sizes', () => {
  for (const [what, flags, key] of tinyBenches) {
    it(`bench ${what} ${flags.join(' ')} exits 0 with its figures`, () => {
      const run = spawnCliSync(['bench', what, ...flags, '--json'], {
        env: { FAIRAUDIT_DATA_DIR: '/work/shared/datasets' },
      });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(Object.keys(firstFigures(run.stdout))).toContain(key);
    }, 60_000);
  }

  it('bench paper-a counts every audit of the 48-cell grid', () => {
    const run = spawnCliSync(['bench', 'paper-a', '--replicates', '2', '--json']);
    expect(run.code).toBe(0);
    const figures = JSON.parse(run.stdout)['paper-a'];
    expect(figures.audits).toBe(48 * 2);
    expect(figures.queries).toBeGreaterThan(figures.audits);
  }, 60_000);

  it('bench runner times the quickstart and its fixed cost: one replicate of each of its 12 cells', () => {
    const run = spawnCliSync(['bench', 'runner', '--replicates', '100', '--json']);
    expect(run.code).toBe(0);
    const { quickstart, quickstartFixedCost } = JSON.parse(run.stdout).runner;
    expect(quickstart.replicates).toBeGreaterThanOrEqual(10_000);
    expect([quickstartFixedCost.replicates, quickstartFixedCost.threads]).toEqual([12, 2]);
    expect(quickstartFixedCost.seconds).toBeGreaterThan(0);
  }, 60_000);
});

describe('fairaudit --version', () => {
  it('prints the package version and exits 0', () => {
    const run = spawnCliSync(['--version']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^fairaudit \d+\.\d+\.\d+\n$/);
  });
});

describe('fairaudit bench <what> --record, bench history, bench compare', () => {
  const folder = mkdtempSync(join(tmpdir(), 'fairaudit-bench-history-'));
  const store = join(folder, 'history.jsonl');

  it('--record appends each figure with its environment; history writes the page and chart', () => {
    const run = spawnCliSync(['bench', 'glr', '--updates', '20000', '--runs', '2', '--record', store]);
    expect(run.code).toBe(0);
    const records = readFileSync(store, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const bernoulli = records.find((record) => record.figure === 'bernoulli.updatesPerSecond');
    expect(bernoulli).toMatchObject({
      format: 'fairaudit-bench/1',
      bench: 'glr',
      repeats: 2,
      nodeVersion: process.version,
    });
    expect(bernoulli.value).toBeGreaterThan(0);
    expect(bernoulli.loadBefore).toHaveLength(3);
    expect(typeof bernoulli.dirty).toBe('boolean');
    expect(bernoulli.commit).toMatch(/^[0-9a-f]{40}$/);
    const page = join(folder, 'docs', 'benchmarks.md');
    const history = spawnCliSync(['bench', 'history', '--store', store, '--out', page]);
    expect(history.code).toBe(0);
    const text = readFileSync(page, 'utf8');
    // One row per figure: the newest run's value, with no run before it in this store.
    const row = text.split('\n').find((line) => line.startsWith('| glr bernoulli.updatesPerSecond |'));
    expect(row?.split(' | ')[1]).toBe(String(Number(bernoulli.value.toPrecision(4))));
    expect(row).toMatch(/ \| - \| - \| 1 \|$/);
    const chart = JSON.parse(readFileSync(join(folder, 'docs', 'benchmarks', 'history.vl.json'), 'utf8'));
    expect(chart.data.values.length).toBeGreaterThanOrEqual(3);
    expect(spawnCliSync(['bench', 'history', '--store', join(folder, 'absent.jsonl')]).code).toBe(2);
  }, 60_000);

  it('bench compare runs both builds interleaved and gives the ratio with its interval', () => {
    const run = spawnCliSync([
      'bench',
      'compare',
      packageRoot(),
      '--rounds',
      '2',
      // The bench's own flags in one value (--args=...), so they are not read as compare's.
      '--args=--updates 20000 --runs 1',
      '--json',
    ]);
    expect([0, 1], run.stderr).toContain(run.code);
    const result = JSON.parse(run.stdout);
    expect(result.base).toHaveLength(2);
    expect(result.head).toHaveLength(2);
    expect(result.speedRatio.low).toBeLessThanOrEqual(result.speedRatio.ratio);
    expect(result.speedRatio.high).toBeGreaterThanOrEqual(result.speedRatio.ratio);
    expect(['slower', 'faster', 'no change']).toContain(result.verdict);
    expect(run.code).toBe(result.verdict === 'slower' ? 1 : 0);
    expect(spawnCliSync(['bench', 'compare', join(folder, 'nowhere')]).code).toBe(2);
  }, 120_000);
});

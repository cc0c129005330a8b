import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cellStatistics } from '../../../src/report/run-comparison/cell-statistics.js';
import { compareRuns } from '../../../src/report/run-comparison/compare-runs.js';
import { spawnCliSync } from '../../helpers/cli.js';

const folder = mkdtempSync(join(tmpdir(), 'fairaudit-compare-runs-'));
const run = (name: string, ...sets: string[]) => {
  const flags = ['replicates=40', ...sets].flatMap((set) => ['--set', set]);
  const result = spawnCliSync([
    'run',
    'configs/quickstart.yaml',
    '--out',
    join(folder, name),
    '--threads',
    '1',
    '--quiet',
    ...flags,
  ]);
  expect(result.code, result.stderr).toBe(0);
  return join(folder, name);
};

describe('compareRuns(pairs, options) and fairaudit compare BASE HEAD', () => {
  let base: string;
  let again: string;
  let otherSeed: string;
  let budget: string;
  beforeAll(() => {
    base = run('base');
    again = run('again');
    otherSeed = run('other-seed', 'seed=11');
    budget = run('budget', 'budget=2000');
  }, 60_000);

  it('says identical at once when fingerprints and SHA-256 agree, exit 0', () => {
    const result = spawnCliSync(['compare', base, again]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('identical: the same plans and byte-identical results.');
  });

  it('finds no regression between two master seeds (different plans, every cell shared)', async () => {
    const comparison = await compareRuns([{ name: 'q', base, head: otherSeed }]);
    expect(comparison.runs[0]).toMatchObject({ identical: false, samePlan: false, sharedCells: 12 });
    expect(comparison.runs[0].configChanges).toEqual(['seed: "20260629" -> "11"']);
    // Unmatched seeds: unpaired tests only.
    expect(comparison.statistics.every((s) => !s.paired)).toBe(true);
    expect(comparison.statistics.some((s) => s.result.test === 'Welch t-test')).toBe(true);
    expect(comparison.statistics.some((s) => s.result.test === 'score test for two proportions')).toBe(true);
    expect(comparison.verdict).toBe('no regression');
  });

  it('flags budget 4000 -> 2000 with paired tests on matched seeds, exit 1, and writes table, chart and report', () => {
    const out = join(folder, 'out');
    const result = spawnCliSync(['compare', base, budget, '--out', out]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('settings.budget: 4000 -> 2000');
    expect(result.stdout).toMatch(/mean fixed_samples: 4000 -> 2000/);
    expect(result.stdout).toContain('(paired t-test)');
    for (const file of ['run-comparison.arrow', 'run-comparison.csv', 'charts/run-comparison.svg', 'comparison.json'])
      expect(existsSync(join(out, file))).toBe(true);
    expect(readFileSync(join(out, 'run-comparison.md'), 'utf8')).toContain('| changed |');
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('<section id="run-comparison">');
  });

  it('with --margin asserts unchanged only when every statistic is shown within it', async () => {
    const wide = await compareRuns([{ name: 'q', base, head: otherSeed }], { margin: 100 });
    expect(wide.statistics.every((s) => s.equivalent === true)).toBe(true);
    expect(wide.verdict).toBe('no regression');
    const narrow = await compareRuns([{ name: 'q', base, head: otherSeed }], { margin: 0.001 });
    expect(narrow.statistics.some((s) => s.equivalent === false)).toBe(true);
    expect(narrow.verdict).toBe('regression');
  });

  it('--save-baseline NAME then --baseline NAME compares without a second checkout', () => {
    const store = join(folder, 'baselines');
    expect(spawnCliSync(['compare', base, '--save-baseline', 'main', '--baselines', store]).code).toBe(0);
    const same = spawnCliSync(['compare', again, '--baseline', 'main', '--baselines', store]);
    expect(same.stdout).toContain('identical');
    expect(same.code).toBe(0);
    expect(spawnCliSync(['compare', budget, '--baseline', 'main', '--baselines', store]).code).toBe(1);
    const missing = spawnCliSync(['compare', budget, '--baseline', 'nope', '--baselines', store]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--baseline nope: expected a baseline saved with --save-baseline');
  });

  it('exits 2 on two different experiments and on a missing folder', () => {
    const other = join(folder, 'budget-sweep');
    expect(
      spawnCliSync(['run', 'configs/sweeps/budget.yaml', '--out', other, '--quiet', '--set', 'replicates=2']).code,
    ).toBe(0);
    const different = spawnCliSync(['compare', base, other]);
    expect(different.code).toBe(2);
    expect(different.stderr).toMatch(/expected a run of the experiment in .*quickstart/);
    expect(spawnCliSync(['compare', base, join(folder, 'absent')]).code).toBe(2);
  }, 30_000);
});

describe('cellStatistics(base, head, outcomes)', () => {
  const outcomes = [
    { name: 'decision', type: 'utf8', description: '', values: ['reject', 'accept'] },
    { name: 'queries', type: 'int32', description: '' },
  ];
  const cell = (seeds: string[], decisions: string[], queries: number[]) => ({
    seeds,
    values: new Map<string, Array<number | string>>([
      ['decision', decisions],
      ['queries', queries],
    ]),
  });
  it('uses McNemar and the paired t-test when seeds match, the score test and Welch otherwise', () => {
    const base = cell(['a', 'b', 'c', 'd'], ['reject', 'accept', 'reject', 'accept'], [10, 20, 30, 40]);
    const head = cell(['a', 'b', 'c', 'd'], ['reject', 'reject', 'reject', 'accept'], [11, 21, 31, 41]);
    const paired = cellStatistics(base, head, outcomes);
    expect(paired.map((s) => [s.statistic, s.result.test])).toEqual([
      ['decision = reject', 'McNemar exact test (matched seeds)'],
      ['decision = accept', 'McNemar exact test (matched seeds)'],
      ['mean queries', 'paired t-test'],
    ]);
    // Every pair moved by exactly +1: a constant shift, p = 0.
    expect(paired[2].result.pValue).toBe(0);
    const unpaired = cellStatistics(base, { ...head, seeds: ['w', 'x', 'y', 'z'] }, outcomes);
    expect(unpaired.map((s) => s.result.test)).toEqual([
      'score test for two proportions',
      'score test for two proportions',
      'Welch t-test',
    ]);
  });
  it('leaves out a frequency of 0 or 1 in both runs and a constant equal mean', () => {
    const base = cell(['a', 'b'], ['accept', 'accept'], [5, 5]);
    expect(cellStatistics(base, base, outcomes)).toEqual([]);
  });
});

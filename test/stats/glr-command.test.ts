import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/util/paths.js';
import { runCliInProcess, spawnCliSync } from '../helpers/cli.js';

// End to end: spawn bin/fairaudit, which runs the compiled dist/.
const fixtures = join(packageRoot(), 'test', 'fixtures', 'pools');

function fairaudit(...args: string[]) {
  return spawnCliSync(args);
}

describe('fairaudit glr (spawned)', () => {
  it('glr bernoulli --n-a 120 --s-a 30 --n-b 130 --s-b 52 --tolerance 0.05 prints {"glr": 1.44001294794633}', () => {
    const { code, stdout } = fairaudit(
      'glr',
      'bernoulli',
      '--n-a',
      '120',
      '--s-a',
      '30',
      '--n-b',
      '130',
      '--s-b',
      '52',
      '--tolerance',
      '0.05',
    );
    expect(code).toBe(0);
    // 50-digit mpmath value 1.440012947946327 (see test/stats/bernoulli-glr.test.ts)
    expect(JSON.parse(stdout).glr).toBeCloseTo(1.440012947946327, 12);
  });

  it('glr gaussian ... prints the SciPy-checked value', () => {
    const { code, stdout } = fairaudit(
      'glr',
      'gaussian',
      '--n-a',
      '7',
      '--sum-a',
      '2.7',
      '--sumsq-a',
      '1.0742',
      '--n-b',
      '6',
      '--sum-b',
      '3.39',
      '--sumsq-b',
      '1.9379',
      '--tolerance',
      '0.05',
    );
    expect(code).toBe(0);
    // SciPy SLSQP: 4.42745664450559 (see test/stats/gaussian-glr.test.ts)
    expect(JSON.parse(stdout).glr).toBeCloseTo(4.42745664450559, 7);
  });

  it('glr --input FILE.jsonl prints one line per case with a glr field, infinities as strings', () => {
    const { code, stdout } = fairaudit('glr', '--input', join(fixtures, 'glr-cases.jsonl'));
    expect(code).toBe(0);
    const lines = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toHaveLength(4);
    expect(lines[0].glr).toBeCloseTo(1.440012947946327, 12);
    expect(lines[1].glr).toBeCloseTo(10 * Math.log(0.9), 12);
    expect(lines[2].glr).toBeCloseTo(4.42745664450559, 7);
    expect(lines[3].glr).toBe('Infinity');
    expect(lines[0].n_a).toBe(120);
  });

  it('exits 2 naming the line and field of a bad case (spawned)', () => {
    const { code, stderr } = fairaudit('glr', '--input', join(fixtures, 'glr-bad-case.jsonl'));
    expect(code).toBe(2);
    expect(stderr).toMatch(/glr-bad-case\.jsonl: line 2, field "s_a": expected an integer in \[0, 10\], found 11/);
  });

  it('--help lists glr and audit; glr --help lists its families and --input', () => {
    expect(fairaudit('--help').stdout).toMatch(/glr[\s\S]*audit/);
    expect(fairaudit('glr', '--help').stdout).toMatch(/bernoulli[\s\S]*gaussian[\s\S]*--input/);
  });

  it('bench glr --json --updates 20000 --runs 1 names each family and its rate', () => {
    const { code, stdout } = fairaudit('bench', 'glr', '--json', '--updates', '20000', '--runs', '1');
    expect(code).toBe(0);
    const result = JSON.parse(stdout);
    expect(result.bernoulli.updatesPerSecond).toBeGreaterThan(0);
    expect(result.gaussian.updatesPerSecond).toBeGreaterThan(0);
  });
});

/** Runs the CLI in this process (the same main() bin/fairaudit calls), capturing its output. */
function inProcess(...args: string[]) {
  return runCliInProcess(args);
}

describe('fairaudit glr (in process, through main())', () => {
  it('exits 2 naming the line, field or flag for bad input', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['glr', 'bernoulli', '--n-a', '0', '--s-a', '0', '--n-b', '3', '--s-b', '1', '--tolerance', '0.1'], /--n-a/],
      [
        ['glr', 'bernoulli', '--n-a', '5', '--s-a', '1', '--n-b', '3', '--s-b', '1', '--tolerance', '1'],
        /--tolerance: expected a number in \(0, 1\)/,
      ],
      [
        ['glr', 'bernoulli', '--n-a', 'many', '--s-a', '1', '--n-b', '3', '--s-b', '1', '--tolerance', '0.1'],
        /--n-a: expected a finite number, found "many"/,
      ],
      [['glr', 'bernoulli', '--n-a', '5', '--s-a', '1', '--n-b', '3', '--tolerance', '0.1'], /s-b/],
      [
        [
          'glr',
          'gaussian',
          '--n-a',
          '2',
          '--sum-a',
          '1',
          '--sumsq-a',
          '0.1',
          '--n-b',
          '2',
          '--sum-b',
          '1',
          '--sumsq-b',
          '1',
          '--tolerance',
          '0.1',
        ],
        /--sumsq-a/,
      ],
      [
        [
          'glr',
          'gaussian',
          '--n-a',
          '2',
          '--sum-a',
          '1',
          '--sumsq-a',
          '1',
          '--n-b',
          '2',
          '--sum-b',
          '1',
          '--sumsq-b',
          '1',
          '--tolerance',
          '-1',
        ],
        /--tolerance: expected a positive number/,
      ],
      [
        [
          'glr',
          'bernoulli',
          '--n-a',
          '5',
          '--s-a',
          '1',
          '--n-b',
          '3',
          '--s-b',
          '1',
          '--tolerance',
          '0.1',
          '--bogus',
          '1',
        ],
        /bogus/,
      ],
      [['glr', '--input', join(fixtures, 'absent.jsonl')], /absent\.jsonl/],
      [['glr'], /--input/],
    ];
    for (const [args, message] of cases) {
      const { code, stderr } = await inProcess(...args);
      expect({ args, code, stderr }).toEqual({ args, code: 2, stderr });
      expect(stderr).toMatch(message);
    }
  });
});

import { describe, expect, it } from 'vitest';
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
});

describe('fairaudit --version', () => {
  it('prints the package version and exits 0', () => {
    const run = spawnCliSync(['--version']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^fairaudit \d+\.\d+\.\d+\n$/);
  });
});

import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/util/paths.js';

const root = packageRoot();
const scratch = mkdtempSync(join(tmpdir(), 'fairaudit-regress-test-'));

/** scripts/regress.sh BASE on the tiny suite (the quickstart), speed reported but not gating (too noisy at that size).
 * */
function regress(base: string, out: string) {
  return spawnSync('bash', ['scripts/regress.sh', base], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, REGRESS_SUITE: 'tiny', REGRESS_OUT: out, REGRESS_SPEED_GATE: '0' },
  });
}

describe('scripts/regress.sh BASE (make regress) on the tiny suite', () => {
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('A/A against HEAD: identical results, exit 0, one report', () => {
    const out = join(scratch, 'aa');
    const run = regress('HEAD', out);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('quickstart: identical');
    const report = readFileSync(join(out, 'README.md'), 'utf8');
    expect(report).toContain('## Results');
    expect(report).toContain('head/base speed');
  }, 600_000);

  it('against a commit with an injected change (budget 4000 -> 1000 in the quickstart): exit 1', () => {
    // The injected change lives in a throwaway worktree's detached commit, never on a branch.
    const tree = join(scratch, 'injected');
    execFileSync('git', ['worktree', 'add', '--detach', '--quiet', tree, 'HEAD'], { cwd: root });
    try {
      const config = join(tree, 'configs', 'quickstart.yaml');
      writeFileSync(config, readFileSync(config, 'utf8').replace('budget: 4000', 'budget: 1000'));
      const git = (...args: string[]) => execFileSync('git', args, { cwd: tree, encoding: 'utf8' }).trim();
      git('-c', 'user.name=test', '-c', 'user.email=test@example.invalid', 'commit', '-qam', 'injected change');
      const injected = git('rev-parse', 'HEAD');
      const run = regress(injected, join(scratch, 'ab'));
      expect(run.status, run.stderr).toBe(1);
      expect(run.stdout).toContain('settings.budget: 1000 -> 4000');
      expect(run.stdout).toMatch(/regression: \d+ of \d+ statistics changed/);
    } finally {
      execFileSync('git', ['worktree', 'remove', '--force', tree], { cwd: root });
    }
  }, 600_000);

  it('exits 2 on a BASE that is not a git ref', () => {
    const run = regress('no-such-ref-anywhere', join(scratch, 'bad'));
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('BASE: expected a git ref of this repository, found no-such-ref-anywhere');
  });
});

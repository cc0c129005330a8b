import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/util/paths.js';

const root = packageRoot();

/** Runs an ES module script with plain Node in the package root, as a user's program would run, and parses its JSON
 * output. */
function runAsUser(script: string): unknown {
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`node exited ${run.status}: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

const ENTRY_POINTS = ['fairaudit', 'fairaudit/stats', 'fairaudit/respir', 'fairaudit/pir', 'fairaudit/harness'];

describe('the public API, imported by package name (package.json "exports", against dist/)', () => {
  for (const entry of ENTRY_POINTS) {
    it(`import('${entry}') exports these names`, () => {
      const names = runAsUser(
        `const m = await import('${entry}'); console.log(JSON.stringify(Object.keys(m).sort()));`,
      );
      expect(names).toMatchSnapshot();
    });
  }

  it("import('fairaudit/src/harness/config.js') is refused: internals are not exported", () => {
    const run = spawnSync(
      process.execPath,
      ['--input-type=module', '-e', "await import('fairaudit/dist/src/harness/config.js')"],
      { cwd: root, encoding: 'utf8' },
    );
    expect(run.status).not.toBe(0);
    expect(run.stderr).toMatch(/ERR_PACKAGE_PATH_NOT_EXPORTED/);
  });

  it('auditPool(pool, settings) from fairaudit returns what `fairaudit audit --json` prints', () => {
    const pool = join(root, 'test', 'fixtures', 'pools', 'small.csv');
    const summary = runAsUser(
      `import { auditPool, readPoolFile } from 'fairaudit';
       const summary = await auditPool(readPoolFile(${JSON.stringify(pool)}), { seed: '7', tolerance: 0.2 });
       console.log(JSON.stringify(summary));`,
    );
    const cli = spawnSync(
      process.execPath,
      [join(root, 'bin', 'fairaudit'), 'audit', '--pool', pool, '--seed', '7', '--tolerance', '0.2', '--json'],
      {
        cwd: root,
        encoding: 'utf8',
      },
    );
    expect(cli.status).toBe(0);
    expect({ ...(summary as object), pool }).toEqual(JSON.parse(cli.stdout));
  });
});

describe('a library user registers an experiment kind of their own (fairaudit/harness)', () => {
  const out = mkdtempSync(join(tmpdir(), 'fairaudit-user-kind-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('registerKind(coinKind), then configFromObject, runExperiment on worker threads and writeReport', () => {
    const program = join(root, 'test', 'fixtures', 'user-kind', 'run-coins.mjs');
    const run = spawnSync(process.execPath, [program, out], { cwd: root, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    const result = JSON.parse(run.stdout) as {
      kinds: string[];
      duplicate: string;
      rows: number;
      threads: number;
      shares: number[];
    };
    expect(result.kinds).toEqual([
      'sequential-audit',
      'operating-characteristic',
      'respir',
      'respir-minimal-flips',
      'coin',
    ]);
    expect(result.duplicate).toMatch(/"coin" is already registered/);
    expect(result.rows).toBe(800);
    expect(result.threads).toBe(2);
    expect(result.shares[0]).toBeLessThan(0.2);
    expect(result.shares[1]).toBeGreaterThan(0.8);
  });
});

import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/harness/config.js';
import { runExperiment } from '../../src/harness/run-experiment.js';
import { runCliInProcess, spawnCli } from '../helpers/cli.js';
import { folderSnapshot } from '../helpers/folder-snapshot.js';
import { bytesOf, longExperimentYaml, smallExperimentYaml, temporaryFolder, writeText } from './helpers.js';

// 2 cells × 12000 replicates in chunks of 25: a second or more at one thread, so two runs overlap.
const LONG = longExperimentYaml('long', 'folder-test').replace('replicates: 1500', 'replicates: 12000');

/** Whether checkpoint files have appeared in a run's output folder. */
function hasCheckpoints(out: string): boolean {
  const folder = join(out, '.checkpoints');
  return existsSync(folder) && readdirSync(folder).some((name) => name.endsWith('.bin'));
}

async function waitFor(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('one writer per output folder', () => {
  it(
    'two identical runs started together into one --out: exactly one runs, the other exits 2 naming the holder; ' +
      'the results equal a single run',
    async () => {
      const folder = temporaryFolder();
      const file = writeText(folder, 'long.yaml', LONG);
      const out = join(folder, 'shared');
      const runs = await Promise.all(
        [1, 2].map(() => spawnCli(['run', file, '--threads', '1', '--out', out, '--quiet']).done),
      );
      expect(runs.map((run) => run.code).sort()).toEqual([0, 2]);
      const loser = runs.find((run) => run.code === 2);
      expect(loser?.stderr).toMatch(
        new RegExp(
          '^fairaudit: .*shared: expected an output folder no other run is using, found it locked ' +
            String.raw`by fairaudit run .*long\.yaml \(pid \d+ on .*, since .*, plan [0-9a-f]{12}\); wait for ` +
            String.raw`that run to finish, or use another --out\n$`,
        ),
      );
      const reference = await runExperiment(parseConfig(LONG, file), {
        threads: 2,
        outDirectory: join(folder, 'single'),
      });
      expect(bytesOf(join(out, 'results.arrow')).equals(bytesOf(reference.resultsFile))).toBe(true);
      expect(existsSync(join(out, '.fairaudit.lock'))).toBe(false);
    },
  );

  it(
    'a different experiment while a run holds the folder: exit 2, and the first run keeps its checkpoints and ' +
      'finishes with its own results',
    async () => {
      const folder = temporaryFolder();
      const file = writeText(folder, 'long.yaml', LONG);
      const other = writeText(folder, 'other.yaml', smallExperimentYaml('other', 5));
      const out = join(folder, 'shared');
      const first = spawnCli(['run', file, '--threads', '1', '--out', out, '--quiet']);
      await waitFor(() => hasCheckpoints(out), "the first run's checkpoints");
      const second = await runCliInProcess(['run', other, '--out', out, '--quiet']);
      expect(second.code).toBe(2);
      expect(second.stderr).toMatch(
        /expected an output folder no other run is using, found it locked by fairaudit run .*long\.yaml/,
      );
      expect(hasCheckpoints(out)).toBe(true);
      expect((await first.done).code).toBe(0);
      const reference = await runExperiment(parseConfig(LONG, file), {
        threads: 2,
        outDirectory: join(folder, 'single'),
      });
      expect(bytesOf(join(out, 'results.arrow')).equals(bytesOf(reference.resultsFile))).toBe(true);
    },
  );

  it(
    "another experiment's finished folder: exit 2 naming it, prior results untouched; --force replaces " + 'them',
    async () => {
      const folder = temporaryFolder();
      const out = join(folder, 'results');
      await runExperiment(parseConfig(smallExperimentYaml('first', 3), join(folder, 'first.yaml')), {
        threads: 1,
        outDirectory: out,
      });
      const before = folderSnapshot(out);
      const file = writeText(folder, 'second.yaml', smallExperimentYaml('second', 3));
      const refused = await runCliInProcess(['run', file, '--out', out]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toBe(
        `fairaudit: ${out}: expected an empty folder or one of experiment "second", found the results of ` +
          `experiment "first" (${join(out, 'run.json')}); use another --out, or --force to replace them\n`,
      );
      expect(folderSnapshot(out)).toEqual(before);
      const forced = await runCliInProcess(['run', file, '--out', out, '--force', '--quiet']);
      expect(forced.code).toBe(0);
      expect(JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')).experiment).toBe('second');
    },
  );

  it(
    "run --force over another experiment's reported folder removes that report (report.html, charts, tables, " +
      'summary, comparison) once the new results are in, and nothing else',
    async () => {
      const folder = temporaryFolder();
      const out = join(folder, 'results');
      await runExperiment(parseConfig(smallExperimentYaml('first', 3), join(folder, 'first.yaml')), {
        threads: 1,
        outDirectory: out,
      });
      const reported = await runCliInProcess(['report', out, '--no-png']);
      expect(reported.code).toBe(0);
      const { mkdirSync } = await import('node:fs');
      mkdirSync(join(out, 'tables'));
      writeFileSync(join(out, 'tables', 'table-1.csv'), 'first');
      writeFileSync(join(out, 'comparison.md'), 'first');
      writeFileSync(join(out, 'notes.txt'), 'mine');
      expect(readdirSync(out)).toEqual(expect.arrayContaining(['report.html', 'charts', 'summary.csv']));
      const file = writeText(folder, 'second.yaml', smallExperimentYaml('second', 3));
      const forced = await runCliInProcess(['run', file, '--out', out, '--force', '--quiet']);
      expect(forced.code).toBe(0);
      expect(readdirSync(out).sort()).toEqual(['notes.txt', 'results.arrow', 'run.json']);
    },
  );

  it('a stale lock (its process gone, on this host) is taken over with a notice on stderr', async () => {
    const folder = temporaryFolder();
    const file = writeText(folder, 'small.yaml', smallExperimentYaml('stale', 2));
    const out = join(folder, 'out');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(out);
    // pid 2^22 + 1 is above Linux's pid_max (2^22), so no process has it.
    const holder = {
      pid: 4194305,
      host: hostname(),
      processStart: 1,
      startedAt: '2026-12-01T00:00:00.000Z',
      fingerprint: 'a'.repeat(64),
      command: 'fairaudit run dead.yaml',
      token: 'dead',
    };
    writeFileSync(join(out, '.fairaudit.lock'), JSON.stringify(holder));
    const result = await spawnCli(['run', file, '--out', out, '--quiet']).done;
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(
      new RegExp(
        String.raw`^fairaudit: notice: took over the lock of .*out from fairaudit run dead\.yaml \(pid ` +
          String.raw`4194305 on .*\), which is no longer running\n$`,
      ),
    );
    expect(existsSync(join(out, '.fairaudit.lock'))).toBe(false);
  });

  it(
    '--out that is a file, under /proc, or under /sys: exit 2 naming the path (ENOTDIR stack, a hang, EACCES ' +
      'stack before), nothing written',
    async () => {
      const folder = temporaryFolder();
      const file = writeText(folder, 'small.yaml', smallExperimentYaml('where', 2));
      const aFile = writeText(folder, 'a-file', 'prior bytes');
      const cases: [string, RegExp][] = [
        [aFile, /a-file: expected a place fairaudit can write, found a file where a folder should be \(ENOTDIR\)/],
        [
          join(aFile, 'below'),
          /a-file\/below: expected a place fairaudit can write, found a file where a folder should be \(ENOTDIR\)/,
        ],
        ['/proc/self/fairaudit-out', /\/proc\/self\/fairaudit-out: expected a place fairaudit can write, found /],
        ['/sys/fairaudit-out', /\/sys\/fairaudit-out: expected a place fairaudit can write, found /],
      ];
      for (const [out, message] of cases) {
        const { code, stderr } = await runCliInProcess(['run', file, '--out', out]);
        expect({ out, code }).toEqual({ out, code: 2 });
        expect(stderr).toMatch(message);
        expect(stderr.length).toBeLessThan(400);
      }
      expect(readFileSync(aFile, 'utf8')).toBe('prior bytes');
    },
  );

  it(
    'bad input into an existing results folder leaves it as it was, and into a new folder leaves no ' + 'folder',
    async () => {
      const folder = temporaryFolder();
      const out = join(folder, 'results');
      await runExperiment(parseConfig(smallExperimentYaml('prior', 2), join(folder, 'prior.yaml')), {
        threads: 1,
        outDirectory: out,
      });
      const before = folderSnapshot(out);
      const bad = writeText(
        folder,
        'bad.yaml',
        smallExperimentYaml('prior', 2).replace(
          'size: 3000, decisionRate: [0.40, 0.39]',
          'size: 3000, decisionRate: [0.40, 0.39], labelRate: [0.0, 0.0]',
        ),
      );
      const refused = await runCliInProcess(['run', bad, '--out', out]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(
        /bad\.yaml: settings\.pool \(synthetic fair\): metric eo: expected rows with label = 1 of both groups/,
      );
      expect(folderSnapshot(out)).toEqual(before);
      const fresh = join(folder, 'new', 'deeper');
      expect((await runCliInProcess(['run', bad, '--out', fresh])).code).toBe(2);
      expect(existsSync(join(folder, 'new'))).toBe(false);
    },
  );
});

describe('fairaudit report of a folder a run holds', () => {
  it('exit 2 naming the run that holds it; the run finishes undisturbed', async () => {
    const folder = temporaryFolder();
    const file = writeText(folder, 'long.yaml', LONG);
    const out = join(folder, 'shared');
    await runExperiment(parseConfig(LONG.replace('replicates: 12000', 'replicates: 10'), file), {
      threads: 1,
      outDirectory: out,
    });
    const run = spawnCli(['run', file, '--threads', '1', '--out', out, '--quiet']);
    await waitFor(() => hasCheckpoints(out), "the run's checkpoints");
    const report = await runCliInProcess(['report', out, '--no-png']);
    expect(report.code).toBe(2);
    expect(report.stderr).toMatch(
      /shared: expected an output folder no other run is using, found it locked by fairaudit run .*long\.yaml/,
    );
    expect((await run.done).code).toBe(0);
  });

  it('a stale lock on the folder: taken over with a notice on stderr, the report written, the lock gone', async () => {
    const folder = temporaryFolder();
    const out = join(folder, 'results');
    await runExperiment(parseConfig(smallExperimentYaml('stale-report', 2), join(folder, 'small.yaml')), {
      threads: 1,
      outDirectory: out,
    });
    // pid 2^22 + 1 is above Linux's pid_max (2^22), so no process has it.
    const holder = {
      pid: 4194305,
      host: hostname(),
      processStart: 1,
      startedAt: '2026-12-01T00:00:00.000Z',
      fingerprint: 'a'.repeat(64),
      command: 'fairaudit run dead.yaml',
      token: 'dead',
    };
    writeFileSync(join(out, '.fairaudit.lock'), JSON.stringify(holder));
    const report = await runCliInProcess(['report', out, '--no-png']);
    expect(report.code).toBe(0);
    expect(report.stderr).toMatch(
      new RegExp(
        String.raw`^fairaudit: notice: took over the lock of .*results from fairaudit run dead\.yaml \(pid ` +
          String.raw`4194305 on .*\), which is no longer running\n$`,
      ),
    );
    expect(existsSync(join(out, 'report.html'))).toBe(true);
    expect(existsSync(join(out, '.fairaudit.lock'))).toBe(false);
  });
});

/** Makes a folder immutable (chattr +i: even root cannot write in it) for the test, or returns false where chattr
 * cannot. */
function makeImmutable(folder: string, immutable: boolean): boolean {
  return spawnSync('chattr', [immutable ? '+i' : '-i', folder]).status === 0;
}

describe('a results folder the file system will not write', () => {
  it(
    'report and run --out into it: exit 2 naming the folder (an internal-error stack before), results ' + 'untouched',
    async (context) => {
      const folder = temporaryFolder();
      const out = join(folder, 'results');
      const file = writeText(folder, 'small.yaml', smallExperimentYaml('frozen', 2));
      await runExperiment(parseConfig(smallExperimentYaml('frozen', 2), file), { threads: 1, outDirectory: out });
      const before = folderSnapshot(out);
      if (!makeImmutable(out, true))
        context.skip('chattr +i is not available here (it needs root and an ext4-like file system)');
      try {
        for (const command of [
          ['report', out, '--no-png'],
          ['run', file, '--out', out],
        ]) {
          const { code, stderr } = await runCliInProcess(command);
          expect({ command: command[0], code }).toEqual({ command: command[0], code: 2 });
          expect(stderr).toBe(
            `fairaudit: ${out}: expected a place fairaudit can write, found no permission to write there (EPERM)\n`,
          );
        }
      } finally {
        makeImmutable(out, false);
      }
      expect(folderSnapshot(out)).toEqual(before);
    },
  );
});

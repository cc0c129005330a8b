import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { createRandom } from '../../src/util/random.js';
import { type RunningCli, spawnCli } from '../helpers/cli.js';

const started: ChildProcess[] = [];

afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null) child.kill('SIGTERM');
});

function run(args: string[]): RunningCli {
  const running = spawnCli(args);
  started.push(running.child);
  return running;
}

async function waitForFile(path: string, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (existsSync(path)) return readFileSync(path, 'utf8').trim();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${path} did not appear within ${timeoutMs} ms`);
}

describe('fairaudit pir serve | pir audit as two processes', () => {
  test('the auditor process audits the provider process over 127.0.0.1 and shuts it down', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'fairaudit-pir-processes-'));
    const random = createRandom('processes');
    const lines = ['id,group,label,decision'];
    for (let i = 0; i < 2778; i++) {
      const group = random() < 0.4 ? 1 : 0;
      const decision = random() < (group ? 0.55 : 0.3) ? 1 : 0;
      lines.push(`${i},${group},${decision},${decision}`);
    }
    const pool = join(folder, 'pool.csv');
    writeFileSync(pool, `${lines.join('\n')}\n`);
    const urlFile = join(folder, 'provider.json');
    const provider = run(['pir', 'serve', '--pool', pool, '--url-file', urlFile, '--idle-timeout', '30']);
    // The provider builds its OPRF-masked table first (about 4 s of CPU for 2,778 labels; longer on a loaded machine).
    const written = JSON.parse(await waitForFile(urlFile, 150_000));
    expect(written.format).toBe('fairaudit-pir-provider/1');
    expect(written.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(written.token).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(urlFile).mode & 0o777).toBe(0o600);
    const auditor = run([
      'pir',
      'audit',
      '--provider-file',
      urlFile,
      '--pool',
      pool,
      '--audit-set-size',
      '600',
      '--json',
      '--shutdown',
    ]);
    const audit = await auditor.done;
    expect(audit.code).toBe(0);
    const report = JSON.parse(audit.stdout);
    expect(report.results.map((result: { decision: string }) => result.decision)).toEqual(['reject', 'reject']);
    const served = await provider.done;
    expect(served.code).toBe(0);
    expect(served.stdout).toMatch(/stopped: 1 commitments, 610 evaluations answered, 0 evaluations refused/);
    expect(report.transport).toBe('voprf');
    expect(report.labelsRevealed).toBe(610);
    // The token is in the 0600 file only: never on the provider's or the auditor's output.
    expect(served.stdout + served.stderr + audit.stdout + audit.stderr).not.toContain(written.token);
  }, 300_000);
});

describe('fairaudit pir serve: where the URL and token go', () => {
  function smallPool(): string {
    const folder = mkdtempSync(join(tmpdir(), 'fairaudit-pir-serve-'));
    const pool = join(folder, 'pool.csv');
    const rows = Array.from({ length: 64 }, (_, i) => `${i},${i % 2},${i % 3 === 0 ? 1 : 0},${i % 3 === 0 ? 1 : 0}`);
    writeFileSync(pool, `id,group,label,decision\n${rows.join('\n')}\n`);
    return pool;
  }

  test(
    'an unwritable --url-file exits 2 naming the flag, and the service stops instead of listening for its ' +
      'idle timeout',
    async () => {
      // A regular file where the folder should be: unwritable even for root (a read-only folder is not).
      const pool = smallPool();
      const started = Date.now();
      const served = await run([
        'pir',
        'serve',
        '--pool',
        pool,
        '--url-file',
        join(pool, 'provider.json'),
        '--idle-timeout',
        '600',
      ]).done;
      expect(served.code).toBe(2);
      expect(served.stderr).toMatch(
        new RegExp(
          String.raw`--url-file: expected a file pir serve can write \(the URL and bearer token, mode ` +
            String.raw`0600\), found ".*provider\.json \(.*(ENOTDIR|EEXIST)\)\)?"`,
        ),
      );
      expect(Date.now() - started).toBeLessThan(60_000);
    },
  );

  test(
    'without --url-file or --print-token it exits 2 (no auditor could use it); --print-token prints the ' + 'token',
    async () => {
      const refused = await run(['pir', 'serve', '--pool', smallPool()]).done;
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('--url-file: expected a file for the URL and bearer token (or --print-token)');
      const printing = run(['pir', 'serve', '--pool', smallPool(), '--print-token', '--idle-timeout', '1']);
      const printed = await printing.done;
      expect(printed.code).toBe(0);
      expect(printed.stdout).toMatch(/^token [0-9a-f]{64}$/m);
    },
  );
});

import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
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
    const urlFile = join(folder, 'provider.url');
    const provider = run(['pir', 'serve', '--pool', pool, '--url-file', urlFile, '--idle-timeout', '30']);
    const url = await waitForFile(urlFile, 20_000);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const auditor = run(['pir', 'audit', '--provider', url, '--pool', pool, '--sample-size', '600', '--json', '--shutdown']);
    const audit = await auditor.done;
    expect(audit.code).toBe(0);
    const report = JSON.parse(audit.stdout);
    expect(report.results.map((result: { decision: string }) => result.decision)).toEqual(['reject', 'reject']);
    const served = await provider.done;
    expect(served.code).toBe(0);
    expect(served.stdout).toMatch(/stopped: \d+ queries answered/);
  });
});

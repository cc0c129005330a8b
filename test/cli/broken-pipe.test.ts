import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { exitQuietlyOnBrokenPipe } from '../../src/cli/broken-pipe.js';
import { cliPath } from '../helpers/cli.js';

const scratch = mkdtempSync(join(tmpdir(), 'fairaudit-broken-pipe-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('exitQuietlyOnBrokenPipe(stream, exit)', () => {
  it('exits 0 on EPIPE, rethrows any other stream error, and installs one listener per stream', () => {
    const stream = new PassThrough();
    const codes: number[] = [];
    exitQuietlyOnBrokenPipe(stream, (code) => codes.push(code));
    exitQuietlyOnBrokenPipe(stream, (code) => codes.push(code));
    expect(stream.listenerCount('error')).toBe(1);
    stream.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    expect(codes).toEqual([0]);
    expect(() => stream.emit('error', Object.assign(new Error('no space'), { code: 'ENOSPC' }))).toThrow(/no space/);
  });
});

describe('bin/fairaudit ... | head -n 1 (spawned)', () => {
  it('ends quietly with status 0 when the reader closes the pipe (it used to die with an EPIPE stack)', () => {
    // 200,000 cases print about 20 MB, far beyond a pipe's buffer, so the write meets the closed pipe.
    const cases = join(scratch, 'cases.jsonl');
    writeFileSync(
      cases,
      `${'{"family":"bernoulli","n_a":10,"s_a":3,"n_b":12,"s_b":7,"tolerance":0.05}\n'.repeat(200_000)}`,
    );
    const script = `set -o pipefail; "${process.execPath}" "${cliPath}" glr --input "${cases}" | head -n 1`;
    const run = spawnSync('bash', ['-c', script], { encoding: 'utf8' });
    expect(run.stdout).toMatch(/^\{"family":"bernoulli".*"glr":/);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});

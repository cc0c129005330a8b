import { describe, expect, it } from 'vitest';
import { runCliInProcess, spawnCli, spawnCliSync } from './cli.js';

describe('runCliInProcess(args)', () => {
  it('captures stdout and the exit code of a command that writes with process.stdout.write', async () => {
    const { code, stdout, stderr } = await runCliInProcess(['respir', 'table3', '--json']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toHaveLength(7);
    expect(stderr).toBe('');
  });

  it('captures stderr and exit 2 for bad input, and leaves process.exitCode unset', async () => {
    const { code, stderr } = await runCliInProcess(['pir', 'serve', '--pool', 'x.csv', '--port', '-1']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/--port: expected an integer in \[0, 65535\], found -1/);
    expect(process.exitCode).toBeUndefined();
  });
});

describe('spawnCliSync(args, {env, stdin}) and spawnCli(args)', () => {
  it('passes the extra environment variables to the child', () => {
    const { code, stderr } = spawnCliSync(['data', 'info', 'adult'], {
      env: { FAIRAUDIT_DATA_DIR: '/nonexistent-fairaudit-mirror' },
    });
    expect(code).toBe(2);
    expect(stderr).toMatch(/\/nonexistent-fairaudit-mirror/);
  });

  it('returns exit code and output of a child that runs to the end', async () => {
    const { done } = spawnCli(['respir', 'table3', '--json'], { stdin: '' });
    const result = await done;
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toHaveLength(7);
  });
});

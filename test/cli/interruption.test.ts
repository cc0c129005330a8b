import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resumeCommand } from '../../src/cli/interruption.js';
import { LOCK_FILE_NAME } from '../../src/util/folder-lock.js';
import { packageRoot } from '../../src/util/paths.js';
import { temporaryFolder } from '../helpers/temporary-folder.js';

const dist = join(packageRoot(), 'dist', 'src');

describe('endOnInterruption(folder): merge and report at SIGTERM or SIGINT', () => {
  for (const [signal, code] of [
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const) {
    it(`${signal}: says the lock is released, exits ${code}, and the lock file is gone`, async () => {
      const folder = temporaryFolder('fairaudit-interrupt-');
      // A command holding the folder's lock, as merge and report do, then waiting.
      const script = `
        const { acquireFolderLock } = await import(${JSON.stringify(join(dist, 'util', 'folder-lock.js'))});
        const { endOnInterruption } = await import(${JSON.stringify(join(dist, 'cli', 'interruption.js'))});
        acquireFolderLock(process.argv[1], '', 'fairaudit merge');
        endOnInterruption(process.argv[1]);
        process.stdout.write('ready\\n');
        setInterval(() => {}, 1000);`;
      const child = spawn(process.execPath, ['--input-type=module', '-e', script, folder], { stdio: 'pipe' });
      let stderr = '';
      child.stderr.on('data', (chunk) => {
        stderr += chunk;
      });
      await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
      expect(existsSync(join(folder, LOCK_FILE_NAME))).toBe(true);
      child.kill(signal);
      const exit = await new Promise<number | null>((resolve) => child.on('exit', (status) => resolve(status)));
      expect(exit).toBe(code);
      expect(stderr).toBe(
        `fairaudit: interrupted by ${signal}: the lock of ${folder} is released; every file written there is ` +
          `complete (none half-written); run the same command again\n`,
      );
      expect(existsSync(join(folder, LOCK_FILE_NAME))).toBe(false);
    });
  }

  it('resumeCommand(argv) adds --resume once and quotes what a shell would split', () => {
    expect(resumeCommand(['run', 'x.yaml', '--shard', '1/2'])).toBe('fairaudit run x.yaml --shard 1/2 --resume');
    expect(resumeCommand(['run', 'x.yaml', '--resume'])).toBe('fairaudit run x.yaml --resume');
    expect(resumeCommand(['run', 'my config.yaml', '--set', "name=it's"])).toBe(
      `fairaudit run 'my config.yaml' --set 'name=it'\\''s' --resume`,
    );
  });
});

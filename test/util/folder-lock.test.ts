import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/util/errors.js';
import {
  acquireFolderLock,
  LOCK_FILE_NAME,
  type ProcessTable,
  schedulerTask,
  thisProcess,
} from '../../src/util/folder-lock.js';
import { packageRoot } from '../../src/util/paths.js';
import { temporaryFolder } from '../helpers/temporary-folder.js';

const FINGERPRINT = 'a'.repeat(64);

/** A process table where the given pids are alive, with the given start times. */
function processes(pid: number, alive: Record<number, number>, host = 'node-1'): ProcessTable {
  return {
    pid,
    host,
    startOf: (p) => alive[p] ?? null,
    isAlive: (p) => p in alive,
    now: () => new Date('2026-12-01T10:00:00Z'),
  };
}

describe('acquireFolderLock(folder, fingerprint, command, processes)', () => {
  it(
    'makes the folder and a lock file holding pid, host, process start, start time, fingerprint and command; ' +
      'release() removes it',
    () => {
      const folder = join(temporaryFolder('fairaudit-lock-'), 'out', 'deeper');
      const lock = acquireFolderLock(folder, FINGERPRINT, 'fairaudit run x.yaml', processes(100, { 100: 5000 }));
      const written = JSON.parse(readFileSync(join(folder, LOCK_FILE_NAME), 'utf8'));
      expect(written).toMatchObject({
        pid: 100,
        host: 'node-1',
        processStart: 5000,
        startedAt: '2026-12-01T10:00:00.000Z',
        fingerprint: FINGERPRINT,
        command: 'fairaudit run x.yaml',
      });
      expect(written.token).toMatch(/^[0-9a-f]{24}$/);
      expect(lock.notice).toBeUndefined();
      expect(readdirSync(folder)).toEqual([LOCK_FILE_NAME]);
      lock.release();
      lock.release();
      expect(readdirSync(folder)).toEqual([]);
    },
  );

  it('refuses a second holder while the first is alive, with InputError naming the holder, and changes nothing', () => {
    const folder = temporaryFolder('fairaudit-lock-');
    const alive = { 100: 5000, 200: 6000 };
    const first = acquireFolderLock(folder, FINGERPRINT, 'fairaudit run a.yaml', processes(100, alive));
    const before = readFileSync(first.file, 'utf8');
    expect(() => acquireFolderLock(folder, 'b'.repeat(64), 'fairaudit run b.yaml', processes(200, alive))).toThrow(
      new InputError(
        `${folder}: expected an output folder no other run is using, found it locked by fairaudit run a.yaml ` +
          `(pid 100 on node-1, since 2026-12-01T10:00:00.000Z, plan aaaaaaaaaaaa); wait for that run to finish, ` +
          `or use ` +
          `another --out`,
      ),
    );
    expect(readFileSync(first.file, 'utf8')).toBe(before);
    expect(readdirSync(folder)).toEqual([LOCK_FILE_NAME]);
    first.release();
  });

  it('takes over a stale lock (its pid dead on this host) and returns a notice naming the old holder', () => {
    const folder = temporaryFolder('fairaudit-lock-');
    acquireFolderLock(folder, FINGERPRINT, 'fairaudit run a.yaml', processes(100, { 100: 5000 }));
    const second = acquireFolderLock(
      folder,
      FINGERPRINT,
      'fairaudit run a.yaml --resume',
      processes(200, { 200: 6000 }),
    );
    expect(second.notice).toBe(
      `took over the lock of ${folder} from fairaudit run a.yaml (pid 100 on node-1, since ` +
        `2026-12-01T10:00:00.000Z, plan aaaaaaaaaaaa), which is no longer running`,
    );
    expect(JSON.parse(readFileSync(second.file, 'utf8')).pid).toBe(200);
    expect(readdirSync(folder)).toEqual([LOCK_FILE_NAME]);
    second.release();
  });

  it('takes over a lock whose pid now belongs to a process that started later (a reused pid)', () => {
    const folder = temporaryFolder('fairaudit-lock-');
    acquireFolderLock(folder, FINGERPRINT, 'fairaudit run a.yaml', processes(100, { 100: 5000 }));
    const second = acquireFolderLock(
      folder,
      FINGERPRINT,
      'fairaudit run a.yaml',
      processes(200, { 100: 9999, 200: 6000 }),
    );
    expect(second.notice).toMatch(/took over the lock .* from fairaudit run a\.yaml \(pid 100 on node-1/);
  });

  it('never takes over a lock of another host, and says which file to delete if that run is dead', () => {
    const folder = temporaryFolder('fairaudit-lock-');
    acquireFolderLock(folder, FINGERPRINT, 'fairaudit run a.yaml', processes(100, {}, 'node-2'));
    expect(() =>
      acquireFolderLock(folder, FINGERPRINT, 'fairaudit run a.yaml', processes(200, { 200: 1 }, 'node-1')),
    ).toThrow(
      `locked by fairaudit run a.yaml (pid 100 on node-2, since 2026-12-01T10:00:00.000Z, plan aaaaaaaaaaaa); ` +
        `wait for that run to finish, or use another --out (if that run is dead, ` +
        `delete ${join(folder, LOCK_FILE_NAME)})`,
    );
  });

  it('release() of a lock that was taken over leaves the new holder’s lock in place', () => {
    const folder = temporaryFolder('fairaudit-lock-');
    const first = acquireFolderLock(folder, FINGERPRINT, 'first', processes(100, { 100: 5000 }));
    const second = acquireFolderLock(folder, FINGERPRINT, 'second', processes(200, { 200: 6000 }));
    first.release();
    expect(JSON.parse(readFileSync(second.file, 'utf8')).command).toBe('second');
    second.release();
    expect(existsSync(second.file)).toBe(false);
  });

  it('refuses a lock file that is not a lock, naming it and what to do', () => {
    const folder = temporaryFolder('fairaudit-lock-');
    writeFileSync(join(folder, LOCK_FILE_NAME), 'garbage');
    expect(() => acquireFolderLock(folder, FINGERPRINT, 'x', processes(1, { 1: 1 }))).toThrow(
      new InputError(
        `${join(folder, LOCK_FILE_NAME)}: expected a fairaudit lock file, found other content (if no run is ` +
          `using the folder, delete the file and run again)`,
      ),
    );
    expect(readFileSync(join(folder, LOCK_FILE_NAME), 'utf8')).toBe('garbage');
  });

  it(
    'refuses "" and a folder that is a file, an unwritable place or a name too long, with InputError naming ' + 'it',
    () => {
      const base = temporaryFolder('fairaudit-lock-');
      expect(() => acquireFolderLock('', FINGERPRINT, 'x')).toThrow(/expected a folder path, found ""/);
      const file = join(base, 'a-file');
      writeFileSync(file, 'x');
      expect(() => acquireFolderLock(file, FINGERPRINT, 'x')).toThrow(
        new InputError(
          `${file}: expected a place fairaudit can write, found a file where a folder should be (ENOTDIR)`,
        ),
      );
      expect(() => acquireFolderLock(join(file, 'below'), FINGERPRINT, 'x')).toThrow(
        /a file where a folder should be \(ENOTDIR\)/,
      );
      expect(() => acquireFolderLock(join(base, 'n'.repeat(300)), FINGERPRINT, 'x')).toThrow(
        /a name too long for the file system \(ENAMETOOLONG\)/,
      );
      expect(() => acquireFolderLock('/proc/self', FINGERPRINT, 'x')).toThrow(InputError);
      expect(() => acquireFolderLock('/proc/self/fairaudit-out', FINGERPRINT, 'x')).toThrow(
        /a path that cannot be created \(ENOENT\)/,
      );
      const readOnly = join(base, 'read-only');
      mkdirSync(readOnly, { mode: 0o555 });
      if (process.getuid?.() !== 0)
        expect(() => acquireFolderLock(join(readOnly, 'out'), FINGERPRINT, 'x')).toThrow(
          /no permission to write there/,
        );
    },
  );

  it('thisProcess describes this process: alive, with a start time on Linux', () => {
    expect(thisProcess.isAlive(process.pid)).toBe(true);
    if (existsSync('/proc/self/stat')) expect(thisProcess.startOf(process.pid)).toBeGreaterThan(0);
  });
});

const lockModule = join(packageRoot(), 'dist', 'src', 'util', 'folder-lock.js');

/**
 * A child node process that takes the lock and reports; it holds the lock until its
 * stdin closes, then exits normally (or is killed). One that is refused exits 2.
 */
function holder(folder: string) {
  const script = `import { acquireFolderLock } from ${JSON.stringify(lockModule)};
try {
  const lock = acquireFolderLock(process.argv[1], 'f'.repeat(64), 'child ' + process.pid);
  process.stdout.write('locked' + (lock.notice ? ' ' + lock.notice : '') + '\\n');
  process.stdin.resume();
  process.stdin.on('end', () => process.exit(0));
}
catch (error) { process.stdout.write('refused ' + error.message + '\\n'); process.exit(2); }`;
  return spawn(process.execPath, ['--input-type=module', '-e', script, folder], { stdio: ['pipe', 'pipe', 'pipe'] });
}

/** The child's first line of output, and later its exit code and whole output. */
function outputOf(child: ReturnType<typeof holder>) {
  let stdout = '';
  let reported: () => void = () => {};
  const firstLine = new Promise<void>((resolve) => {
    reported = resolve;
  });
  child.stdout?.on('data', (chunk) => {
    stdout += chunk;
    if (stdout.includes('\n')) reported();
  });
  const done = new Promise<{ code: number | null; stdout: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout })),
  );
  return { firstLine, done };
}

// The child processes load the compiled module (dist/, built by `make test`).
describe('acquireFolderLock across processes', () => {
  it('eight processes started together: exactly one holds the folder, the seven others exit 2 naming it', async () => {
    const folder = temporaryFolder('fairaudit-lock-race-');
    const children = Array.from({ length: 8 }, () => holder(folder));
    const outputs = children.map(outputOf);
    await Promise.all(outputs.map((output) => output.firstLine)); // every child has tried while the winner still holds
    for (const child of children) child.stdin?.end();
    const results = await Promise.all(outputs.map((output) => output.done));
    const locked = results.filter((result) => result.stdout.startsWith('locked'));
    expect(locked).toHaveLength(1);
    expect(locked[0].code).toBe(0);
    for (const result of results.filter((r) => r !== locked[0])) {
      expect(result.code).toBe(2);
      expect(result.stdout).toMatch(/^refused .*found it locked by child \d+ \(pid \d+ on /);
    }
    expect(existsSync(join(folder, LOCK_FILE_NAME))).toBe(false);
  });

  it(
    'a holder that exits normally releases the lock; one killed with SIGKILL leaves a stale lock the next run ' +
      'takes over',
    async () => {
      const folder = temporaryFolder('fairaudit-lock-kill-');
      const polite = holder(folder);
      polite.stdin?.end();
      expect((await outputOf(polite).done).code).toBe(0);
      expect(existsSync(join(folder, LOCK_FILE_NAME))).toBe(false);
      const child = holder(folder);
      const output = outputOf(child);
      await output.firstLine;
      child.kill('SIGKILL');
      await output.done;
      expect(JSON.parse(readFileSync(join(folder, LOCK_FILE_NAME), 'utf8')).pid).toBe(child.pid);
      const next = spawnSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `import { acquireFolderLock } from ${JSON.stringify(lockModule)}; const l = ` +
            `acquireFolderLock(${JSON.stringify(folder)}, 'f'.repeat(64), 'next'); console.log(l.notice); l.release();`,
        ],
        { encoding: 'utf8' },
      );
      expect(next.stdout).toMatch(
        new RegExp(
          `took over the lock of .* from child ${child.pid} \\(pid ${child.pid} on .*which is no longer running`,
        ),
      );
    },
  );
});

describe('acquireFolderLock on a cluster: the scheduler task a lock records', () => {
  /** A process of scheduler task `task` on `host`, with the given live pids. */
  const inTask = (pid: number, host: string, task: string | null, alive: Record<number, number> = {}) => ({
    ...processes(pid, { [pid]: 7000, ...alive }, host),
    task,
  });

  it('schedulerTask(env): FAIRAUDIT_TASK_ID, else the Slurm array job and task, else the Slurm job, else null', () => {
    expect(schedulerTask({ FAIRAUDIT_TASK_ID: 'sweep-3', SLURM_JOB_ID: '9' })).toBe('task sweep-3');
    expect(schedulerTask({ SLURM_JOB_ID: '815', SLURM_ARRAY_JOB_ID: '812', SLURM_ARRAY_TASK_ID: '3' })).toBe(
      'slurm 812_3',
    );
    expect(schedulerTask({ SLURM_JOB_ID: '815' })).toBe('slurm 815');
    expect(schedulerTask({ FAIRAUDIT_TASK_ID: '  ' })).toBeNull();
    expect(schedulerTask({})).toBeNull();
  });

  it('a requeued task (same scheduler task, another host) takes the lock over, and the notice says why', () => {
    const folder = temporaryFolder('fairaudit-lock-');
    acquireFolderLock(folder, FINGERPRINT, 'fairaudit run a.yaml --shard 1/2', inTask(100, 'node-a', 'slurm 812_1'));
    const requeued = acquireFolderLock(
      folder,
      FINGERPRINT,
      'fairaudit run a.yaml --shard 1/2 --resume',
      inTask(200, 'node-b', 'slurm 812_1'),
    );
    expect(requeued.notice).toBe(
      `took over the lock of ${folder} from fairaudit run a.yaml --shard 1/2 (pid 100 on node-a, slurm 812_1, ` +
        `since 2026-12-01T10:00:00.000Z, plan aaaaaaaaaaaa), which is an earlier run of this task (slurm 812_1)`,
    );
    expect(JSON.parse(readFileSync(requeued.file, 'utf8'))).toMatchObject({
      pid: 200,
      host: 'node-b',
      task: 'slurm 812_1',
    });
    requeued.release();
  });

  it('another task, or no task, on another host never takes the lock over', () => {
    const folder = temporaryFolder('fairaudit-lock-');
    const first = acquireFolderLock(folder, FINGERPRINT, 'fairaudit run a.yaml', inTask(100, 'node-a', 'slurm 812_1'));
    expect(() => acquireFolderLock(folder, FINGERPRINT, 'b', inTask(200, 'node-b', 'slurm 812_2'))).toThrow(
      /locked by fairaudit run a\.yaml \(pid 100 on node-a, slurm 812_1,/,
    );
    expect(() => acquireFolderLock(folder, FINGERPRINT, 'b', inTask(200, 'node-b', null))).toThrow(/locked by/);
    expect(JSON.parse(readFileSync(first.file, 'utf8')).pid).toBe(100);
    first.release();
  });

  it('the same task on the same host with the holder alive is refused (two runs of one job step)', () => {
    const folder = temporaryFolder('fairaudit-lock-');
    const first = acquireFolderLock(folder, FINGERPRINT, 'a', inTask(100, 'node-a', 'slurm 812_1', { 200: 1 }));
    expect(() =>
      acquireFolderLock(folder, FINGERPRINT, 'b', inTask(200, 'node-a', 'slurm 812_1', { 100: 7000 })),
    ).toThrow(/locked by a \(pid 100 on node-a, slurm 812_1/);
    first.release();
  });

  it('a lock without a start time whose live pid runs another program is taken over; one run by node is not', () => {
    const folder = temporaryFolder('fairaudit-lock-');
    writeFileSync(
      join(folder, LOCK_FILE_NAME),
      JSON.stringify({
        pid: 1,
        host: 'node-1',
        processStart: null,
        startedAt: 'x',
        fingerprint: '',
        command: 'c',
        token: 't',
      }),
    );
    const table = (command: string) => ({ ...processes(200, { 1: 10, 200: 20 }), commandOf: () => command });
    expect(() => acquireFolderLock(folder, FINGERPRINT, 'b', table('/usr/bin/node bin/fairaudit run x.yaml'))).toThrow(
      /locked by c \(pid 1 on node-1/,
    );
    const lock = acquireFolderLock(folder, FINGERPRINT, 'b', table('/sbin/init splash'));
    expect(lock.notice).toMatch(/which is no longer running \(its pid is another program now\)$/);
    lock.release();
  });

  it(
    'a lock taken removes the temporary files a killed writer left (results.arrow.<12 hex>.tmp), and only ' + 'those',
    () => {
      const folder = temporaryFolder('fairaudit-lock-');
      mkdirSync(join(folder, 'tables'));
      writeFileSync(join(folder, 'results.arrow.0123456789ab.tmp'), 'half');
      writeFileSync(join(folder, 'tables', 'summary.csv.ba9876543210.tmp'), 'half');
      writeFileSync(join(folder, 'notes.tmp'), 'mine');
      writeFileSync(join(folder, `${LOCK_FILE_NAME}.${'c'.repeat(24)}.tmp`), 'a lock being taken');
      const lock = acquireFolderLock(folder, FINGERPRINT, 'merge', processes(100, { 100: 1 }));
      expect(readdirSync(folder).sort()).toEqual([
        LOCK_FILE_NAME,
        `${LOCK_FILE_NAME}.${'c'.repeat(24)}.tmp`,
        'notes.tmp',
        'tables',
      ]);
      expect(readdirSync(join(folder, 'tables'))).toEqual([]);
      lock.release();
    },
  );

  it('a report refused by a held lock is told to wait and run the report again, not to use --out', () => {
    const folder = temporaryFolder('fairaudit-lock-');
    const first = acquireFolderLock(folder, FINGERPRINT, 'fairaudit run a.yaml', processes(100, { 100: 1 }));
    expect(() =>
      acquireFolderLock(
        folder,
        '',
        'fairaudit report',
        processes(200, { 100: 1, 200: 2 }),
        'then run the report again',
      ),
    ).toThrow(/; wait for that run to finish, then run the report again$/);
    first.release();
  });
});

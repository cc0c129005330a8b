import { randomBytes } from 'node:crypto';
import { type Dirent, linkSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { InputError, writeProblem } from './errors.js';
import { makeFolder } from './make-folder.js';

/** The lock file's name inside the folder it guards. */
export const LOCK_FILE_NAME = '.fairaudit.lock';

/** Who holds a folder: what the lock file records. */
export interface LockHolder {
  /** The holder's process id. */
  pid: number;
  /** The holder's host name (os.hostname()). */
  host: string;
  /**
   * When the holder's process started, in clock ticks since boot (field 22 of
   * /proc/PID/stat), or null where /proc is not there: tells a reused pid from the holder.
   */
  processStart: number | null;
  /** When the lock was taken (ISO 8601). */
  startedAt: string;
  /** The plan fingerprint of the run that holds the folder ("" for a holder without a plan, e.g. a report). */
  fingerprint: string;
  /** What holds it, in words (e.g. "fairaudit run configs/x.yaml"). */
  command: string;
  /** A random token: release() removes only its own lock. */
  token: string;
  /**
   * The batch scheduler's name for the task that holds the folder (schedulerTask), or null
   * outside a scheduler: a requeued task with the same name takes the lock over from any host.
   */
  task?: string | null;
}

/** A held lock. */
export interface FolderLock {
  /** The lock file. */
  file: string;
  holder: LockHolder;
  /**
   * Set when a stale lock (its process dead, on this host) was taken over: a sentence
   * for the caller to show (the library never prints).
   */
  notice?: string;
  /** Removes the lock file if it is still this lock's; idempotent. Also runs at process exit. */
  release(): void;
}

/** What acquireFolderLock needs to know about processes; tests replace it. */
export interface ProcessTable {
  pid: number;
  host: string;
  /** The start time of process pid in clock ticks since boot, or null when unknown. */
  startOf(pid: number): number | null;
  /** Whether process pid exists. */
  isAlive(pid: number): boolean;
  now(): Date;
  /** The scheduler task this process runs as (schedulerTask(process.env)), or null. */
  task?: string | null;
  /** The command line of process pid, or null when unknown (no /proc). */
  commandOf?(pid: number): string | null;
}

/**
 * schedulerTask(env) names the batch-scheduler task a process runs as, the same in every
 * run of that task (a requeue or a restart after preemption) and in no other task:
 * FAIRAUDIT_TASK_ID when set (any scheduler: a Kubernetes indexed Job passes
 * JOB_NAME-JOB_COMPLETION_INDEX), else Slurm's array job and task id ("slurm 812_3"),
 * else Slurm's job id ("slurm 812"); null outside a scheduler.
 * @param env the environment (process.env)
 * @returns the task's name, or null
 * @example schedulerTask({ SLURM_ARRAY_JOB_ID: '812', SLURM_ARRAY_TASK_ID: '3' }) // 'slurm 812_3'
 */
export function schedulerTask(env: NodeJS.ProcessEnv): string | null {
  const generic = env.FAIRAUDIT_TASK_ID?.trim();
  if (generic) return `task ${generic}`;
  const arrayJob = env.SLURM_ARRAY_JOB_ID?.trim();
  const arrayTask = env.SLURM_ARRAY_TASK_ID?.trim();
  if (arrayJob && arrayTask) return `slurm ${arrayJob}_${arrayTask}`;
  const job = env.SLURM_JOB_ID?.trim();
  return job ? `slurm ${job}` : null;
}

/** The command line of a process from /proc/PID/cmdline (Linux), or null. */
function commandLineOf(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return null;
  }
}

/** The start time of a process from /proc/PID/stat (Linux), or null. */
function processStartOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count fields after it.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const start = Number(fields[19]);
    return Number.isFinite(start) ? start : null;
  } catch {
    return null;
  }
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** This process, as the lock sees it. */
export const thisProcess: ProcessTable = {
  pid: process.pid,
  host: hostname(),
  startOf: processStartOf,
  isAlive: processIsAlive,
  now: () => new Date(),
  task: schedulerTask(process.env),
  commandOf: commandLineOf,
};

function describeHolder(holder: LockHolder): string {
  const plan = holder.fingerprint === '' ? '' : `, plan ${holder.fingerprint.slice(0, 12)}`;
  const task = holder.task ? `, ${holder.task}` : '';
  return `${holder.command} (pid ${holder.pid} on ${holder.host}${task}, since ${holder.startedAt}${plan})`;
}

/**
 * Why a lock's holder is certainly gone, or null: on this host, its pid dead, now another
 * process (a later start, or no node process where the lock recorded no start); on any
 * host, the holder is this process's own scheduler task (a requeued task: the scheduler
 * ran the old one to its end before starting this one).
 */
function staleReason(holder: LockHolder, processes: ProcessTable): string | null {
  if (holder.host !== processes.host) {
    const task = processes.task ?? null;
    return task !== null && holder.task === task ? `is an earlier run of this task (${task})` : null;
  }
  if (!processes.isAlive(holder.pid)) return 'is no longer running';
  const start = processes.startOf(holder.pid);
  if (holder.processStart !== null && start !== null && start !== holder.processStart) return 'is no longer running';
  if (holder.processStart === null) {
    const command = processes.commandOf?.(holder.pid) ?? null;
    if (command !== null && !/\b(node|fairaudit)\b/.test(command))
      return 'is no longer running (its pid is another program now)';
  }
  return null;
}

function readHolder(file: string): LockHolder | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new InputError(
      `${file}: expected a readable lock file, found ${(error as NodeJS.ErrnoException).code ?? 'an error'}`,
    );
  }
  try {
    const holder = JSON.parse(text) as LockHolder;
    if (typeof holder.pid === 'number' && typeof holder.host === 'string' && typeof holder.token === 'string')
      return holder;
  } catch {
    // reported below
  }
  throw new InputError(
    `${file}: expected a fairaudit lock file, found other content (if no run is using the folder, delete the ` +
      `file and run again)`,
  );
}

/** Turns a failure to create the folder or the lock into an InputError naming the folder. */
function folderProblem(folder: string, error: unknown): Error {
  return writeProblem(folder, error) ?? (error as Error);
}

/** fairaudit's temporary names (writeFileAtomic, ArrowFileWriter): `<name>.<12 hex digits>.tmp`. */
const TEMPORARY_NAME = /^(?!\.fairaudit\.lock\.).+\.[0-9a-f]{12}\.tmp$/;

/**
 * Removes the temporary files a killed writer left in the folder and its subfolders (one
 * level: tables/, charts/): with the lock held, no one else is writing them.
 */
function removeLeftTemporaries(folder: string): void {
  const remove = (directory: string, depth: number) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(directory, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.isFile() && TEMPORARY_NAME.test(entry.name)) rmSync(join(directory, entry.name), { force: true });
      else if (entry.isDirectory() && depth > 0 && !entry.name.startsWith('.'))
        remove(join(directory, entry.name), depth - 1);
    }
  };
  remove(folder, 1);
}

/**
 * acquireFolderLock(folder, fingerprint, command, processes) makes `folder` (and its
 * parents) if needed and takes its lock, the file `folder/.fairaudit.lock` holding
 * pid, host, process start, start time, plan fingerprint, command and a random token.
 * Take it before anything in the folder is deleted or written.
 *
 * The file is written whole under a temporary name and then hard-linked to the lock
 * name: link(2) fails with EEXIST when the name exists, as open(2) with O_CREAT|O_EXCL
 * does, and no reader ever sees half a lock. When the lock exists:
 * - its holder is on this host and its process is gone (or the pid now belongs to a
 *   process that started later, or to no node process where the lock has no start time),
 *   or its holder is this process's own scheduler task (schedulerTask: a requeued Slurm
 *   task, on any host): the stale lock is taken over, and the returned lock's `notice`
 *   says whose it was;
 * - otherwise: InputError naming the holder and what to do (wait, or `otherwise`:
 *   "or use another --out" by default), exit 2, and nothing is changed.
 * The lock is released by release() or, failing that, when the process exits
 * (process.exit, which the CLI's SIGTERM/SIGINT handlers call); after a kill -9 it is
 * stale and the next run on this host, or the same scheduler task anywhere, takes it
 * over. With the lock held, temporary files a killed writer left are removed.
 * Running time O(1) file operations. Throws InputError when the folder cannot be made
 * or written (a file in the way, no permission, a read-only file system, a name too
 * long) or when the lock file is not a lock.
 */
export function acquireFolderLock(
  folder: string,
  fingerprint: string,
  command: string,
  processes: ProcessTable = thisProcess,
  otherwise = 'or use another --out',
): FolderLock {
  if (folder.trim() === '')
    throw new InputError('output folder: expected a folder path, found "" (give --out a folder, or leave it out)');
  makeFolder(folder);
  const file = join(folder, LOCK_FILE_NAME);
  const holder: LockHolder = {
    pid: processes.pid,
    host: processes.host,
    processStart: processes.startOf(processes.pid),
    startedAt: processes.now().toISOString(),
    fingerprint,
    command,
    token: randomBytes(12).toString('hex'),
    task: processes.task ?? null,
  };
  const temporary = join(folder, `${LOCK_FILE_NAME}.${holder.token}.tmp`);
  try {
    writeFileSync(temporary, `${JSON.stringify(holder, null, 2)}\n`, { flag: 'wx' });
  } catch (error) {
    throw folderProblem(folder, error);
  }
  let notice: string | undefined;
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        linkSync(temporary, file);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw folderProblem(folder, error);
      }
      const current = readHolder(file);
      if (current === undefined) continue; // released between link and read: try again
      const reason = attempt >= 3 ? null : staleReason(current, processes);
      if (reason === null) {
        throw new InputError(
          `${folder}: expected an output folder no other run is using, found it locked ` +
            `by ${describeHolder(current)}; wait for that run to ` +
            `finish, ${otherwise}${current.host === processes.host ? '' : ` (if that run is dead, delete ${file})`}`,
        );
      }
      // Move the stale lock aside, then check that what was moved is the lock read above:
      // another process may have taken the stale lock over in between.
      const aside = join(folder, `${LOCK_FILE_NAME}.${holder.token}.stale`);
      try {
        renameSync(file, aside);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw folderProblem(folder, error);
      }
      const moved = readHolder(aside);
      if (moved?.token !== current.token) {
        // A live lock was moved by mistake: put it back (unless yet another run has locked
        // the folder meanwhile) and report the folder as busy.
        try {
          linkSync(aside, file);
        } catch {
          // the folder is locked by someone else now
        }
        rmSync(aside, { force: true });
        continue;
      }
      rmSync(aside, { force: true });
      notice = `took over the lock of ${folder} from ${describeHolder(current)}, which ${reason}`;
    }
  } finally {
    rmSync(temporary, { force: true });
  }
  removeLeftTemporaries(folder);
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.removeListener('exit', release);
    try {
      if (readHolder(file)?.token === holder.token) rmSync(file, { force: true });
    } catch {
      // a damaged lock file is left for the user to look at
    }
  };
  process.on('exit', release);
  return { file, holder, ...(notice === undefined ? {} : { notice }), release };
}

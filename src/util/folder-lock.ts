import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
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
};

function describeHolder(holder: LockHolder): string {
  const plan = holder.fingerprint === '' ? '' : `, plan ${holder.fingerprint.slice(0, 12)}`;
  return `${holder.command} (pid ${holder.pid} on ${holder.host}, since ${holder.startedAt}${plan})`;
}

/** Whether a lock's holder is certainly gone: on this host, and its pid dead or now another process. */
function isStale(holder: LockHolder, processes: ProcessTable): boolean {
  if (holder.host !== processes.host) return false;
  if (!processes.isAlive(holder.pid)) return true;
  const start = processes.startOf(holder.pid);
  return holder.processStart !== null && start !== null && start !== holder.processStart;
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
    `${file}: expected a fairaudit lock file, found other content (if no run is using the folder, delete the file and run again)`,
  );
}

/** Turns a failure to create the folder or the lock into an InputError naming the folder. */
function folderProblem(folder: string, error: unknown): Error {
  return writeProblem(folder, error) ?? (error as Error);
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
 *   process that started later): the stale lock is taken over, and the returned lock's
 *   `notice` says whose it was;
 * - otherwise: InputError naming the holder (exit 2), and nothing is changed.
 * The lock is released by release() or, failing that, when the process exits
 * normally; after a kill -9 it is stale and the next run on this host takes it over.
 * Running time O(1) file operations. Throws InputError when the folder cannot be made
 * or written (a file in the way, no permission, a read-only file system, a name too
 * long) or when the lock file is not a lock.
 */
export function acquireFolderLock(
  folder: string,
  fingerprint: string,
  command: string,
  processes: ProcessTable = thisProcess,
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
      if (attempt >= 3 || !isStale(current, processes)) {
        throw new InputError(
          `${folder}: expected an output folder no other run is using, found it locked by ${describeHolder(current)}; wait for that run to finish, or use another --out${current.host === processes.host ? '' : ` (if that run is dead, delete ${file})`}`,
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
      notice = `took over the lock of ${folder} from ${describeHolder(current)}, which is no longer running`;
    }
  } finally {
    rmSync(temporary, { force: true });
  }
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

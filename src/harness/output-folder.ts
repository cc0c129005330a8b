import { existsSync, readdirSync, rmdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describeFound, InputError } from '../util/errors.js';
import { acquireFolderLock, type FolderLock } from '../util/folder-lock.js';
import { parseJsonUntrusted } from '../util/parse-untrusted.js';
import { MAX_JSON_FILE_BYTES, readFileCapped } from '../util/read-capped.js';

/** What claimOutputFolder needs to know about the run that claims a folder. */
export interface OutputFolderClaim {
  /** The experiment whose results go there. */
  experiment: string;
  /** Its plan fingerprint (recorded in the lock). */
  fingerprint: string;
  /** What claims it, in words, shown to a second run ("fairaudit run configs/x.yaml"). */
  command: string;
  /** Replace the results or checkpoints of another experiment found there. */
  force?: boolean;
}

/** A claimed output folder: its lock, and how to give it back. */
export interface OutputFolder {
  folder: string;
  lock: FolderLock;
  /**
   * release(failed) removes the lock; after a failure, also the folders the claim made
   * if they are still empty (bad input leaves no output folder behind). Idempotent.
   */
  release(failed?: boolean): void;
  /**
   * With claim.force over another experiment's results: removes that experiment's report
   * files (report.html, charts/, tables/, summary.*, comparison.*); call it once the new
   * results are written. Otherwise nothing.
   */
  removeReplacedReport(): void;
}

/**
 * The experiment named by a JSON file in the folder (run.json, .checkpoints/plan.json),
 * or null when the file is absent or names none (damaged files are the run's to replace
 * or, with --resume, to refuse).
 */
function experimentIn(file: string): string | null {
  if (!existsSync(file)) return null;
  try {
    const json = parseJsonUntrusted(
      readFileCapped(file, MAX_JSON_FILE_BYTES, 'a JSON file').toString('utf8'),
      file,
    ) as { experiment?: unknown } | null;
    return typeof json?.experiment === 'string' ? json.experiment : null;
  } catch (error) {
    if (error instanceof InputError) return null;
    throw error;
  }
}

/** What `fairaudit report` writes into a results folder (report.html, charts/, tables/, summary.*, comparison.*). */
const REPORT_OUTPUT = /^(report\.html|charts|tables|(summary|comparison)\.(arrow|csv|md))$/;

/** Removes a report's files from a results folder whose results are being replaced. */
function removeReportOf(folder: string): void {
  for (const name of readdirSync(folder))
    if (REPORT_OUTPUT.test(name)) rmSync(join(folder, name), { recursive: true, force: true });
}

/**
 * claimOutputFolder(folder, claim) makes the folder if needed and takes its lock
 * (acquireFolderLock: one writer per folder; a second run gets exit 2 naming the
 * holder; a stale lock of a dead process on this host is taken over and the returned
 * lock carries a notice), before anything in it is deleted or written. Then it refuses
 * a folder holding the results or checkpoints of another experiment (its run.json or
 * .checkpoints/plan.json names another experiment) unless claim.force (then
 * removeReplacedReport() removes that experiment's report once the new results are in). Throws InputError for "" (which
 * would mean the current folder), for a
 * folder that cannot be made or written (a file in the way, no permission, /proc),
 * for a held lock and for another experiment's folder; the folder is then as it was.
 * O(1) file operations.
 */
export function claimOutputFolder(folder: string, claim: OutputFolderClaim): OutputFolder {
  if (folder.trim() === '') {
    throw new InputError(
      '--out: expected a folder path (or no --out: results/<experiment>), found "" (which would be the current folder)',
    );
  }
  const made: string[] = [];
  for (let path = resolve(folder); !existsSync(path) && dirname(path) !== path; path = dirname(path)) made.push(path);
  const lock = acquireFolderLock(folder, claim.fingerprint, claim.command);
  let replaces: string | null = null;
  let released = false;
  const release = (failed = false) => {
    if (released) return;
    released = true;
    lock.release();
    if (!failed) return;
    for (const path of made) {
      try {
        rmdirSync(path);
      } catch {
        return; // not empty (or gone): keep it and its parents
      }
    }
  };
  for (const file of [join(folder, 'run.json'), join(folder, '.checkpoints', 'plan.json')]) {
    const found = experimentIn(file);
    if (found === null || found === claim.experiment) continue;
    if (claim.force) {
      replaces = found;
      continue;
    }
    release(true);
    throw new InputError(
      `${folder}: expected an empty folder or one of experiment ${describeFound(claim.experiment)}, found the ` +
        `results of experiment ${describeFound(found)} (${file}); use another --out, or --force to replace them`,
    );
  }
  // The other experiment's report would otherwise stay beside the new results.
  const removeReplacedReport = () => {
    if (replaces !== null) removeReportOf(folder);
  };
  return { folder, lock, release, removeReplacedReport };
}

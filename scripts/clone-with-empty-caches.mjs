// What the whole-run measurement scripts share: a clone of a commit at a path, linked to this checkout's
// node_modules, and an environment whose caches (FAIRAUDIT_CACHE_DIR, XDG_CACHE_HOME) start empty in a folder.
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, utimesSync } from 'node:fs';
import { join } from 'node:path';

/** A clone of `commit` of `repository` at `checkout`, linked to the repository's node_modules (never installed). */
export function cloneAt(repository, checkout, commit) {
  mkdirSync(checkout, { recursive: true });
  execFileSync('git', ['clone', '--quiet', '--no-checkout', repository, checkout]);
  execFileSync('git', ['-C', checkout, 'checkout', '--quiet', '--detach', commit]);
  symlinkSync(join(repository, 'node_modules'), join(checkout, 'node_modules'));
  // make's node_modules/.package-lock.json rule must not run npm ci through the link: the lock file is made older.
  utimesSync(join(checkout, 'package-lock.json'), new Date(0), new Date(0));
}

/** process.env with the user caches in `caches` (created, empty unless the caller copied some in). */
export function environmentWithCachesIn(caches) {
  const environment = {
    ...process.env,
    FAIRAUDIT_CACHE_DIR: join(caches, 'fairaudit-cache'),
    XDG_CACHE_HOME: join(caches, 'xdg-cache'),
  };
  mkdirSync(environment.FAIRAUDIT_CACHE_DIR, { recursive: true });
  mkdirSync(environment.XDG_CACHE_HOME, { recursive: true });
  return environment;
}

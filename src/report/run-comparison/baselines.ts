import { copyFileSync, existsSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { InputError } from '../../util/errors.js';
import { makeFolder } from '../../util/make-folder.js';
import { pairRunTrees } from './run-tree.js';

/** Where saved baselines live unless --baselines says otherwise (relative to the working folder). */
export const DEFAULT_BASELINES_FOLDER = join('results', 'baselines');

/** A baseline's name: letters, digits, dot, dash and underscore, so it is a safe folder name. */
function checkName(name: string): void {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(name))
    throw new InputError(
      `--baseline: expected a name of letters, digits, '.', '-' and '_', found ${JSON.stringify(name)}`,
    );
}

/**
 * baselineFolder(store, name) is the folder of a saved baseline; InputError when the name
 * is not a safe folder name, or (`mustExist`) when no baseline of that name is saved.
 */
export function baselineFolder(store: string, name: string, mustExist: boolean): string {
  checkName(name);
  const folder = join(store, name);
  if (mustExist && !existsSync(folder))
    throw new InputError(`--baseline ${name}: expected a baseline saved with --save-baseline in ${store}, found none`);
  return folder;
}

/**
 * saveBaseline(results, store, name) keeps a copy of the runs of a results folder (or
 * tree) under store/name: each run's run.json and results.arrow at the same relative
 * paths, which is all a comparison reads. The copy is built under a temporary name and
 * renamed over any earlier baseline of that name. O(size of the results).
 */
export function saveBaseline(results: string, store: string, name: string): string {
  const folder = baselineFolder(store, name, false);
  const staging = `${folder}.tmp-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  const { pairs } = pairRunTrees(results, results);
  for (const pair of pairs) {
    const target = pairs.length === 1 && pair.base === results ? staging : join(staging, pair.name);
    makeFolder(target);
    for (const file of ['run.json', 'results.arrow']) copyFileSync(join(pair.base, file), join(target, file));
  }
  makeFolder(dirname(folder));
  rmSync(folder, { recursive: true, force: true });
  renameSync(staging, folder);
  return folder;
}

import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { isMeasurementRecord } from '../../harness/run-record.js';
import { InputError } from '../../util/errors.js';
import type { RunPair } from './compare-runs.js';

/**
 * The folders under `root` (itself included) that hold the run.json of a run, as paths relative to root ('' for
 * root); a measurement's run.json (paper-b-pir) holds no results to compare.
 */
function runFolders(root: string): string[] {
  const found: string[] = [];
  const visit = (folder: string, depth: number) => {
    const record = join(folder, 'run.json');
    if (existsSync(record) && !isMeasurementRecord(record)) found.push(relative(root, folder));
    if (depth >= 4) return;
    for (const entry of readdirSync(folder).sort()) {
      if (entry.startsWith('.') || entry === 'baselines') continue;
      const path = join(folder, entry);
      if (statSync(path).isDirectory()) visit(path, depth + 1);
    }
  };
  visit(root, 0);
  return found;
}

/** The pairs of a comparison of two trees, and the runs only one tree holds. */
export interface TreePairs {
  pairs: RunPair[];
  onlyInBase: string[];
  onlyInHead: string[];
}

/**
 * pairRunTrees(base, head) matches the runs of two results trees: two run folders are
 * one pair; two trees (a reproduction's folder, a regression suite's) pair their run
 * folders by relative path, and list the rest. Throws InputError naming the folder when
 * it is missing or holds no run. O(folders).
 */
export function pairRunTrees(base: string, head: string): TreePairs {
  for (const folder of [base, head]) {
    if (!(existsSync(folder) && statSync(folder).isDirectory()))
      throw new InputError(`${folder}: expected a results folder or a tree of them, found no such folder`);
  }
  const baseRuns = runFolders(base);
  const headRuns = runFolders(head);
  for (const [folder, runs] of [
    [base, baseRuns],
    [head, headRuns],
  ] as const) {
    if (runs.length === 0)
      throw new InputError(
        `${folder}: expected a results folder (run.json, results.arrow) or a tree of them, found none`,
      );
  }
  if (baseRuns.includes('') && headRuns.includes('')) {
    return { pairs: [{ name: basename(resolve(head)), base, head }], onlyInBase: [], onlyInHead: [] };
  }
  const shared = baseRuns.filter((run) => headRuns.includes(run));
  if (shared.length === 0)
    throw new InputError(`${head}: expected runs at the same paths as in ${base}, found none in common`);
  return {
    pairs: shared.map((run) => ({ name: run === '' ? '.' : run, base: join(base, run), head: join(head, run) })),
    onlyInBase: baseRuns.filter((run) => !headRuns.includes(run)),
    onlyInHead: headRuns.filter((run) => !baseRuns.includes(run)),
  };
}

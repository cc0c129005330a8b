import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalJson } from '../../util/canonical-json.js';

/** A file two results trees do not agree on, and why. */
export interface TreeDifference {
  /** The file's path relative to the trees' roots, with "/". */
  file: string;
  why: 'only in the first tree' | 'only in the second tree' | 'bytes differ' | 'run.json differs outside provenance';
}

/** What compareTreeIdentity found: the files of both trees, and those that differ beyond run.json's provenance. */
export interface TreeIdentity {
  /** Files in either tree (union of the relative paths). */
  files: number;
  differing: TreeDifference[];
}

/** treeFiles(root) lists every file under root (hidden ones included), relative, with "/", sorted. */
export function treeFiles(root: string): string[] {
  const found: string[] = [];
  const visit = (folder: string, prefix: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const relativePath = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
      if (entry.isDirectory()) visit(join(folder, entry.name), relativePath);
      else found.push(relativePath);
    }
  };
  visit(root, '');
  return found.sort();
}

/** The canonical JSON of a run.json without its top-level provenance, or null when the text is not a JSON object. */
function withoutProvenance(text: string): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
  const { provenance: _provenance, ...rest } = parsed as Record<string, unknown>;
  return canonicalJson(rest);
}

/** Whether a tree's relative path names a run.json, at any depth. */
function isRunJson(file: string): boolean {
  return file === 'run.json' || file.endsWith('/run.json');
}

/** Whether two files agree: byte-equal, or for run.json equal once the provenance is removed. */
function sameFile(file: string, first: Buffer, second: Buffer): boolean {
  if (first.equals(second)) return true;
  if (!isRunJson(file)) return false;
  const a = withoutProvenance(first.toString('utf8'));
  return a !== null && a === withoutProvenance(second.toString('utf8'));
}

/**
 * compareTreeIdentity(first, second) decides whether two results trees (two `make
 * reproduce` runs) differ only in run.json's provenance: every file must be in both and
 * byte-equal, except that a run.json (at any depth) is compared as JSON with its
 * top-level `provenance` removed (key order ignored). Returns the file count and every
 * difference. O(total bytes).
 *
 * @example compareTreeIdentity('/tmp/a/results', '/tmp/b/results').differing // []
 */
export function compareTreeIdentity(first: string, second: string): TreeIdentity {
  const firstFiles = treeFiles(first);
  const secondFiles = new Set(treeFiles(second));
  const differing: TreeDifference[] = [];
  for (const file of firstFiles) {
    if (!secondFiles.has(file)) {
      differing.push({ file, why: 'only in the first tree' });
      continue;
    }
    secondFiles.delete(file);
    if (!sameFile(file, readFileSync(join(first, file)), readFileSync(join(second, file)))) {
      differing.push({ file, why: isRunJson(file) ? 'run.json differs outside provenance' : 'bytes differ' });
    }
  }
  for (const file of secondFiles) differing.push({ file, why: 'only in the second tree' });
  differing.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return { files: firstFiles.length + secondFiles.size, differing };
}

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/util/paths.js';

/**
 * The layers of the house (README "Layout", docs/contracts.md), lowest first. A file
 * may import a file of its own room, or of a room of lower rank; rooms of equal rank
 * are independent unless listed in PEER_IMPORTS. The first pattern that matches a
 * path (relative to the package root, with "/") gives its room.
 */
const ROOMS: ReadonlyArray<{ room: string; rank: number; pattern: RegExp }> = [
  { room: 'util', rank: 0, pattern: /^src\/util\// },
  { room: 'stats', rank: 1, pattern: /^src\/stats\// },
  { room: 'audit', rank: 2, pattern: /^src\/audit\// },
  { room: 'data', rank: 3, pattern: /^src\/data\// },
  { room: 'models', rank: 3, pattern: /^src\/models\// },
  { room: 'respir', rank: 3, pattern: /^src\/respir\// },
  { room: 'pir', rank: 3, pattern: /^src\/pir\// },
  { room: 'harness', rank: 4, pattern: /^src\/harness\// },
  { room: 'report', rank: 5, pattern: /^src\/report\// },
  { room: 'kinds (the interface)', rank: 6, pattern: /^src\/kinds\/kind\.ts$/ },
  { room: 'kinds/$1', rank: 6.5, pattern: /^src\/kinds\/([^/]+)\// },
  { room: 'kinds (the catalogue)', rank: 6.9, pattern: /^src\/kinds\/index\.ts$/ },
  { room: 'papers (shared)', rank: 7, pattern: /^papers\/[^/]+\.ts$/ },
  { room: 'papers/$1', rank: 7.5, pattern: /^papers\/([^/]+)\// },
  { room: 'cli', rank: 8, pattern: /^src\/cli\// },
  { room: 'public API', rank: 8, pattern: /^src\/(index\.ts$|api\/)/ },
];

/** Imports between rooms of equal rank that the house allows: models train on data. */
const PEER_IMPORTS = new Set(['models -> data']);

const root = packageRoot();

function sourceFiles(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.ts$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

function posix(path: string): string {
  return relative(root, path).split(sep).join('/');
}

function roomOf(path: string): { room: string; rank: number } | null {
  const file = posix(path);
  for (const entry of ROOMS) {
    const match = entry.pattern.exec(file);
    if (match) return { room: entry.room.replace('$1', match[1] ?? ''), rank: entry.rank };
  }
  return null;
}

/**
 * Every relative import of a file (static import/export ... from, import type, and
 * dynamic import()), resolved to the .ts file it names, with its line.
 */
function importsOf(file: string): Array<{ target: string; line: number; text: string }> {
  const text = readFileSync(file, 'utf8');
  const found: Array<{ target: string; line: number; text: string }> = [];
  const pattern = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm;
  for (const match of text.matchAll(pattern)) {
    const specifier = match[1];
    const resolved = resolve(dirname(file), specifier);
    const target = [resolved.replace(/\.js$/, '.ts'), resolved].find(
      (candidate) => existsSync(candidate) && statSync(candidate).isFile(),
    );
    if (target === undefined) continue;
    found.push({ target, line: text.slice(0, match.index).split('\n').length, text: specifier });
  }
  return found;
}

const files = [...sourceFiles(join(root, 'src')), ...sourceFiles(join(root, 'papers'))];
const graph = new Map(files.map((file) => [file, importsOf(file)]));

/** Strongly connected components with more than one file (or a file importing itself): Tarjan's algorithm. */
function cycles(): string[][] {
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string): void => {
    indexOf.set(file, index);
    low.set(file, index);
    index++;
    stack.push(file);
    onStack.add(file);
    for (const { target } of graph.get(file) ?? []) {
      if (!graph.has(target)) continue;
      if (!indexOf.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, indexOf.get(target)!));
      }
    }
    if (low.get(file) === indexOf.get(file)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(posix(member));
      } while (member !== file);
      const selfImport = (graph.get(file) ?? []).some(({ target }) => target === file);
      if (component.length > 1 || selfImport) found.push(component.sort());
    }
  };
  for (const file of graph.keys()) if (!indexOf.has(file)) visit(file);
  return found;
}

describe('the import graph of src/ and papers/', () => {
  it('places every file in a room of the house', () => {
    const unplaced = files.filter((file) => roomOf(file) === null).map(posix);
    expect(unplaced, `files outside every room (add a room to ROOMS or move them): ${unplaced.join(', ')}`).toEqual([]);
  });

  it('has no import that points up a layer or across to a peer room', () => {
    const offending: string[] = [];
    for (const [file, imports] of graph) {
      const from = roomOf(file);
      if (from === null) continue;
      for (const { target, line, text } of imports) {
        const to = roomOf(target);
        if (to === null || to.room === from.room) continue;
        if (to.rank < from.rank || PEER_IMPORTS.has(`${from.room} -> ${to.room}`)) continue;
        const why = to.rank > from.rank ? 'points up' : 'crosses to a peer room';
        offending.push(
          `${posix(file)}:${line} imports '${text}' (${posix(target)}): ${from.room} (rank ${from.rank}) ${why}, ${to.room} (rank ${to.rank})`,
        );
      }
    }
    expect(offending, `imports against the layers:\n${offending.join('\n')}`).toEqual([]);
  });

  it('has no import cycle', () => {
    const found = cycles();
    expect(found, `import cycles:\n${found.map((cycle) => cycle.join(' -> ')).join('\n')}`).toEqual([]);
  });
});

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/util/paths.js';
import { PEER_IMPORTS, ROOMS } from './rooms.js';

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
          `${posix(file)}:${line} imports '${text}' ` +
            `(${posix(target)}): ${from.room} (rank ${from.rank}) ${why}, ${to.room} (rank ${to.rank})`,
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

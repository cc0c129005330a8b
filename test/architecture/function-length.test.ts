import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/util/paths.js';

/** The most lines a function may span, from its first token to its closing brace (STYLE: functions under 120 lines). */
const MAX_FUNCTION_LINES = 120;

/**
 * Functions known to be longer, each with why: an entry must name a function that is
 * still too long (a stale entry fails), so the list can only shrink.
 */
const KNOWN_LONG: ReadonlyArray<{ file: string; name: string; why: string }> = [];

const root = packageRoot();

function sourceFiles(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.ts$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every function of a file (declarations, methods, arrows, expressions, accessors) longer than MAX_FUNCTION_LINES. */
function longFunctions(path: string, text: string): Array<{ file: string; name: string; line: number; lines: number }> {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found: Array<{ file: string; name: string; line: number; lines: number }> = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      const name = node.name !== undefined ? node.name.getText(source) : '(anonymous)';
      if (lines > MAX_FUNCTION_LINES) found.push({ file: path, name, line: first + 1, lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const long = [...sourceFiles(join(root, 'src')), ...sourceFiles(join(root, 'papers'))].flatMap((file) =>
  longFunctions(relative(root, file).split(sep).join('/'), readFileSync(file, 'utf8')),
);
const isKnown = (entry: { file: string; name: string }) =>
  KNOWN_LONG.some((known) => known.file === entry.file && known.name === entry.name);

describe(`the functions of src/ and papers/ (at most ${MAX_FUNCTION_LINES} lines each)`, () => {
  it('has no function longer than that outside the known list', () => {
    const offending = long
      .filter((entry) => !isKnown(entry))
      .map((e) => `${e.file}:${e.line} ${e.name}: ${e.lines} lines`);
    expect(offending, `functions over ${MAX_FUNCTION_LINES} lines:\n${offending.join('\n')}`).toEqual([]);
  });

  it('keeps no stale entry in the known list', () => {
    const stale = KNOWN_LONG.filter(
      (known) => !long.some((entry) => entry.file === known.file && entry.name === known.name),
    );
    expect(stale.map((known) => `${known.file} ${known.name}`)).toEqual([]);
  });

  it('measures what it claims: a 121-line function or method is found, a 120-line one is not', () => {
    const statements = (count: number) => '  x++;\n'.repeat(count);
    const probe =
      `function f() {\n${statements(119)}}\nclass C {\n  m() {\n${statements(118)}  }\n}\nconst g = ` +
      `() => {\n${statements(118)}};\n`;
    expect(longFunctions('probe.ts', probe).map((entry) => [entry.name, entry.lines])).toEqual([['f', 121]]);
    const arrow = `const g = () => {\n${statements(119)}};\n`;
    expect(longFunctions('probe.ts', arrow).map((entry) => [entry.name, entry.lines])).toEqual([['(anonymous)', 121]]);
  });
});

import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/util/paths.js';

/** The entry points of package.json "exports", as sources. */
const ENTRY_FILES = ['src/index.ts', 'src/api/stats.ts', 'src/api/respir.ts', 'src/api/pir.ts', 'src/api/harness.ts'];

/** The most names the public API may export, over all entry points: a deliberate, small API. */
const MAX_PUBLIC_NAMES = 120;

const root = packageRoot();
const program = ts.createProgram(
  ENTRY_FILES.map((file) => join(root, file)),
  { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, strict: true, noEmit: true },
);
const checker = program.getTypeChecker();

interface PublicExport {
  readonly entry: string;
  readonly name: string;
  readonly declaration: ts.Declaration | undefined;
}

function exportsOf(entry: string): PublicExport[] {
  const source = program.getSourceFile(join(root, entry));
  if (source === undefined) throw new Error(`${entry} is not in the program`);
  const module = checker.getSymbolAtLocation(source);
  if (module === undefined) throw new Error(`${entry} has no module symbol`);
  return checker.getExportsOfModule(module).map((symbol) => {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    return { entry, name: symbol.getName(), declaration: target.declarations?.[0] };
  });
}

const exported = ENTRY_FILES.flatMap(exportsOf);

/** The JSDoc tags of a declaration (of its variable statement for a const). */
function tagsOf(declaration: ts.Declaration): readonly ts.JSDocTag[] {
  return ts.getJSDocTags(declaration);
}

function hasComment(declaration: ts.Declaration): boolean {
  const node = ts.isVariableDeclaration(declaration) ? declaration.parent.parent : declaration;
  return ts.getJSDocCommentsAndTags(node).length > 0;
}

/**
 * What a public export's doc comment lacks: every function needs @param for each
 * parameter, @returns unless it returns nothing, and @example; a class needs @example
 * and @param for each constructor parameter; every other export (a type, a constant) a
 * doc comment.
 */
function missingDocs(item: PublicExport): string[] {
  const declaration = item.declaration;
  if (declaration === undefined) return ['a declaration'];
  if (!hasComment(declaration)) return ['a doc comment'];
  const isFunction = ts.isFunctionDeclaration(declaration);
  const isClass = ts.isClassDeclaration(declaration);
  if (!isFunction && !isClass) return [];
  const tags = tagsOf(declaration);
  const missing: string[] = [];
  const parameters = isFunction
    ? declaration.parameters
    : (declaration.members.find(ts.isConstructorDeclaration)?.parameters ?? ts.factory.createNodeArray());
  const documented = new Set(tags.filter(ts.isJSDocParameterTag).map((tag) => tag.name.getText()));
  for (const parameter of parameters) {
    const name = parameter.name.getText();
    if (!documented.has(name)) missing.push(`@param ${name}`);
  }
  if (isFunction) {
    const signature = checker.getSignatureFromDeclaration(declaration);
    const returned = signature === undefined ? 'void' : checker.typeToString(signature.getReturnType());
    if (returned !== 'void' && returned !== 'Promise<void>' && !tags.some((tag) => tag.tagName.text === 'returns'))
      missing.push('@returns');
  }
  if (!tags.some((tag) => tag.tagName.text === 'example')) missing.push('@example');
  return missing;
}

describe('the public API (src/index.ts and src/api/*.ts)', () => {
  it(`exports at most ${MAX_PUBLIC_NAMES} names in all`, () => {
    expect(exported.length, exported.map((item) => `${item.entry}: ${item.name}`).join('\n')).toBeLessThanOrEqual(
      MAX_PUBLIC_NAMES,
    );
  });

  it('documents every export: @param, @returns and @example on functions and classes, a comment on the rest', () => {
    const lacking = exported
      .map((item) => ({ item, missing: missingDocs(item) }))
      .filter(({ missing }) => missing.length > 0)
      .map(({ item, missing }) => `${item.entry} ${item.name}: ${missing.join(', ')}`);
    expect(lacking, `undocumented public exports:\n${lacking.join('\n')}`).toEqual([]);
  });

  it('has one spelling: summarize, not summarise', () => {
    expect(exported.filter((item) => /summaris/i.test(item.name))).toEqual([]);
    expect(exported.some((item) => item.name === 'summarize')).toBe(true);
  });
});

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/util/paths.js';
import {
  backtickedSpans,
  camelCaseWords,
  codeWords,
  commentsOf,
  identifiersIn,
  type Mention,
  NOT_CODE,
  pathExists,
  pathIn,
  repositoryFiles,
} from './references.js';

const root = packageRoot();
const files = repositoryFiles(root);
const words = codeWords(root);

/** The pages: README.md and docs/*.md (the generated references included: their text comes from the code). */
const pages = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** The TypeScript files of src/ and papers/, whose comments are checked. */
const sources = files.filter((file) => /^(src|papers)\/.*\.ts$/.test(file));

/** The mentions that do not resolve: paths that name no file, identifiers that name no code. */
function dangling(mentions: readonly Mention[], checkIdentifiers: (mention: Mention) => string[]): string[] {
  const found: string[] = [];
  for (const mention of mentions) {
    const path = pathIn(mention.text);
    if (path !== null && !pathExists(path, files)) found.push(`${mention.where}: path \`${path}\` does not exist`);
    for (const name of checkIdentifiers(mention)) {
      if (!words.has(name) && !NOT_CODE.has(name))
        found.push(`${mention.where}: \`${name}\` names no code in src/, papers/, test/ or scripts/`);
    }
  }
  return found;
}

describe('every path and code identifier the docs and comments name exists', () => {
  it('reads the pages, the sources and the code (a check of nothing would pass vacuously)', () => {
    expect(pages).toContain('docs/contracts.md');
    expect(sources.length).toBeGreaterThan(200);
    expect(words.has('runSequentialAudit')).toBe(true);
  });

  it('README.md and docs/*.md: backticked paths and identifiers', () => {
    const mentions = pages.flatMap((page) => backtickedSpans(readFileSync(join(root, page), 'utf8'), page));
    expect(mentions.length).toBeGreaterThan(1000);
    const found = dangling(mentions, (mention) => identifiersIn(mention.text));
    expect(found, found.join('\n')).toEqual([]);
  });

  it('comments of src/ and papers/: backticked paths and identifiers, and every camelCase word', () => {
    const found: string[] = [];
    for (const file of sources) {
      const comments = commentsOf(readFileSync(join(root, file), 'utf8'));
      found.push(...dangling(backtickedSpans(comments, file), (mention) => identifiersIn(mention.text)));
      found.push(...dangling(camelCaseWords(comments, file), (mention) => [mention.text]));
    }
    expect(found, found.join('\n')).toEqual([]);
  });

  it('fails on a removed function, a moved file and a missing page', () => {
    const comment = commentsOf('/** Exact on counts, see fixedDecisionOf and `compareResults`. */\nconst x = 1;\n');
    const text = `${comment}\nSee \`src/audit/no-such-file.ts\`, \`docs/missing.md\` and \`configs/paper-a/x.yaml\`.`;
    const mentions = [...backtickedSpans(text, 'example'), ...camelCaseWords(comment, 'example')];
    const found = dangling(mentions, (mention) => (mention.text.includes(' ') ? [] : identifiersIn(mention.text)));
    expect(found.join('\n')).toContain('`fixedDecisionOf` names no code');
    expect(found.join('\n')).toContain('`compareResults` names no code');
    expect(found.join('\n')).toContain('path `src/audit/no-such-file.ts` does not exist');
    expect(found.join('\n')).toContain('path `docs/missing.md` does not exist');
    expect(found.join('\n')).toContain('path `configs/paper-a/x.yaml` does not exist');
  });

  it('accepts what exists: paths with placeholders, identifiers in calls, flags and outputs', () => {
    expect(pathExists('src/kinds/<kind>/', files)).toBe(true);
    expect(pathExists('papers/*/configs/models/', files)).toBe(true);
    expect(pathExists('tables/paper-a-table-{2,3}-beyond.csv', files)).toBe(false);
    expect(pathIn('results/paper-a/report.html')).toBeNull();
    expect(pathIn('--minimum-per-group')).toBeNull();
    expect(identifiersIn('createRandom(deriveSeed(masterSeed, cellKey, r))')).toEqual([
      'createRandom',
      'deriveSeed',
      'masterSeed',
      'cellKey',
    ]);
    expect(identifiersIn('--score-tolerance')).toEqual([]);
  });
});

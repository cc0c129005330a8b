import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtInKinds } from '../../src/kinds/index.js';
import { packageRoot } from '../../src/util/paths.js';
import { roomTable } from '../architecture/rooms.js';

/**
 * The generated sections of hand-written pages: each lies between
 * `<!-- generated: NAME -->` and `<!-- end generated: NAME -->` and is the output of
 * its generator; test/docs/generated-sections.test.ts fails when a page differs, and
 * `FAIRAUDIT_WRITE_DOCS=1 npx vitest run test/docs/generated-sections.test.ts` rewrites them.
 */
export interface GeneratedSection {
  readonly page: string;
  readonly name: string;
  readonly generate: () => string;
}

/**
 * kindTable() lists the built-in experiment kinds (src/kinds/index.ts, `builtInKinds`),
 * in the order the registry holds them, with their folder and description.
 * @returns The Markdown table, ending with a newline.
 */
export function kindTable(): string {
  const rows = builtInKinds.map((kind) => {
    const folder = relative(packageRoot(), fileURLToPath(kind.run.module))
      .split('\\')
      .join('/')
      .replace(/^dist\//, '')
      .replace(/\/[^/]+$/, '/');
    return `| \`${kind.name}\` | \`${folder}\` | ${kind.run.description.replace(/\s*\n\s*/g, ' ')} |`;
  });
  return `${['| kind | folder | what one replicate is |', '|---|---|---|', ...rows].join('\n')}\n`;
}

export const GENERATED_SECTIONS: readonly GeneratedSection[] = [
  { page: 'docs/contracts.md', name: 'rooms', generate: roomTable },
  { page: 'docs/contracts.md', name: 'kinds', generate: kindTable },
];

/**
 * withSection(text, name, body) is the page text with the body of its section NAME
 * replaced; throws an Error naming the markers when the page lacks them.
 */
export function withSection(text: string, name: string, body: string): string {
  const start = `<!-- generated: ${name} -->\n`;
  const end = `<!-- end generated: ${name} -->`;
  const from = text.indexOf(start);
  const to = text.indexOf(end, from);
  if (from < 0 || to < 0) throw new Error(`the page has no section between "${start.trim()}" and "${end}"`);
  return `${text.slice(0, from + start.length)}${body}${text.slice(to)}`;
}

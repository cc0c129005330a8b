import { paperALayout } from '../../experiments/paper-a/report-layout.js';
import { paperBLayout } from '../../experiments/paper-b/report-layout.js';
import { inputError } from '../util/errors.js';
import type { PaperLayout } from './paper-layout.js';

/**
 * The paper layouts `fairaudit report` and `compare` resolve from a results folder's
 * report-layout.json. To add one: export a PaperLayout from experiments/<paper>/ and
 * add one import and one entry here (or call registerPaperLayout at run time).
 */
const builtInPaperLayouts: PaperLayout[] = [paperALayout, paperBLayout];

const registered = new Map<string, PaperLayout>(builtInPaperLayouts.map((layout) => [layout.name, layout]));

/** registerPaperLayout(layout) adds a layout (replacing one with the same name). O(1). */
export function registerPaperLayout(layout: PaperLayout): void {
  registered.set(layout.name, layout);
}

/**
 * findPaperLayout(name, where) returns the registered layout; throws InputError naming
 * `where` (the manifest) and the known layouts when none has that name. O(1).
 */
export function findPaperLayout(name: string, where: string): PaperLayout {
  const layout = registered.get(name);
  if (layout === undefined) {
    throw inputError({ where, expected: `a paper layout (${[...registered.keys()].sort().join(', ')})`, found: name });
  }
  return layout;
}

import { Registry } from '../util/registry.js';
import type { PaperLayout } from './paper-layout.js';

/**
 * The paper layouts `fairaudit report` and `compare` resolve from a results folder's
 * report-layout.json, by name. The reporter knows no paper: the composition root
 * (src/cli/registry.ts) registers the layouts of papers/<paper>/.
 */
const layouts = new Registry<PaperLayout>('paper layout');

/** registerPaperLayout(layout) adds a layout. Throws an Error when the name is taken. O(1). */
export function registerPaperLayout(layout: PaperLayout): void {
  layouts.register(layout);
}

/**
 * findPaperLayout(name, where) returns the registered layout; throws InputError naming
 * `where` (the manifest) and the known layouts when none has that name. O(1).
 */
export function findPaperLayout(name: string, where: string): PaperLayout {
  return layouts.get(name, where);
}

/** paperLayouts() lists the registered layouts in registration order. */
export function paperLayouts(): PaperLayout[] {
  return layouts.list();
}

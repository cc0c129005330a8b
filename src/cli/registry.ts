import { paperALayout } from '../../experiments/paper-a/report-layout.js';
import { paperBLayout } from '../../experiments/paper-b/report-layout.js';
import { builtInKinds, registerKind } from '../kinds/index.js';
import { registerPaperLayout } from '../report/paper-layouts.js';
import type { PaperLayout } from '../report/paper-layout.js';

/** The paper layouts `report` and `compare` know, one per paper. */
export const paperLayouts: readonly PaperLayout[] = [paperALayout, paperBLayout];

let registered = false;

/**
 * registerBuiltIns() is the composition root: it hands the lower layers what they
 * plug in (the experiment kinds of src/kinds/ to the harness and the reporter, the
 * papers' layouts to the reporter). The CLI calls it before any command; calling it
 * again does nothing.
 */
export function registerBuiltIns(): void {
  if (registered) return;
  registered = true;
  for (const kind of builtInKinds) registerKind(kind);
  for (const layout of paperLayouts) registerPaperLayout(layout);
}

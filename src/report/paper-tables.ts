import type { PaperTableLayout } from './paper-table.js';

/**
 * The paper tables the reporter knows. To add one: export a PaperTableLayout from your
 * table module (for example experiments/paper-a/table-4.ts) and add one import and
 * one entry here, or call registerPaperTable at run time.
 */
const builtInPaperTables: PaperTableLayout[] = [];

const registered = new Map<string, PaperTableLayout>(builtInPaperTables.map((layout) => [layout.id, layout]));

/** registerPaperTable(layout) adds a layout (replacing one with the same id). O(1). */
export function registerPaperTable(layout: PaperTableLayout): void {
  registered.set(layout.id, layout);
}

/** paperTablesFor(experiment) lists the layouts filled from that experiment, by id. */
export function paperTablesFor(experiment: string): PaperTableLayout[] {
  return [...registered.values()]
    .filter((layout) => layout.experiments.includes(experiment))
    .sort((a, b) => a.id.localeCompare(b.id));
}

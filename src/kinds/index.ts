import type { ExperimentKind } from './kind.js';
import { respirKind, respirMinimalFlipsKind } from './respir/index.js';
import { sequentialAuditKind } from './sequential-audit/index.js';

export { type ExperimentKind, registerKind } from './kind.js';

/**
 * The experiment kinds fairaudit ships, in the order the config reference lists them.
 * To add one: write src/kinds/<kind>/ (run.ts, report.ts, index.ts exporting an
 * ExperimentKind) and add it here; the composition root (src/cli/registry.ts)
 * registers this list.
 */
export const builtInKinds: readonly ExperimentKind[] = [sequentialAuditKind, respirKind, respirMinimalFlipsKind];

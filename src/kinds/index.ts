import { findKindRunner } from '../harness/kind-runners.js';
import { type ExperimentKind, registerKind } from './kind.js';
import { operatingCharacteristicKind } from './operating-characteristic/index.js';
import { respirKind, respirMinimalFlipsKind } from './respir/index.js';
import { sequentialAuditKind } from './sequential-audit/index.js';

export { type ExperimentKind, registerKind } from './kind.js';

/**
 * The experiment kinds fairaudit ships, in the order the config reference lists them;
 * the composition root (src/cli/registry.ts) registers this list. How to add one:
 * docs/harness.md, "Experiment kinds".
 */
export const builtInKinds: readonly ExperimentKind[] = [
  sequentialAuditKind,
  operatingCharacteristicKind,
  respirKind,
  respirMinimalFlipsKind,
];

/**
 * registerBuiltInKinds() registers every built-in kind not registered yet (the CLI's
 * composition root and the fairaudit/harness entry point both call it). Throws an Error
 * when another kind already holds a built-in kind's name.
 */
export function registerBuiltInKinds(): void {
  for (const kind of builtInKinds) if (findKindRunner(kind.name) !== kind.run) registerKind(kind);
}

import type { ExperimentKind } from './kind.js';
import { sequentialAuditKind } from './kinds/sequential-audit.js';
import { respirKind, respirMinimalFlipsKind } from '../respir/respir-experiment-kinds.js';

/**
 * The registry of experiment kinds. To add a kind, write src/runner/kinds/<name>.ts
 * exporting an ExperimentKind and add it to this list (one import, one entry); the
 * worker threads find it here by name. See docs/harness.md.
 */
// biome-ignore lint/suspicious/noExplicitAny: kinds differ in their settings and context types
export const experimentKinds: readonly ExperimentKind<any, any>[] = [sequentialAuditKind, respirKind, respirMinimalFlipsKind];

/** The kind registered under a name, or undefined. */
// biome-ignore lint/suspicious/noExplicitAny: see experimentKinds
export function findKind(name: string): ExperimentKind<any, any> | undefined {
  return experimentKinds.find((kind) => kind.name === name);
}

import { Registry } from '../util/registry.js';
import type { KindReporter } from './kind-reporter.js';

/**
 * The experiment kinds the reporter can summarise (the `kind` column of
 * results.arrow), by name. The reporter knows no kind of its own: the composition
 * root (src/cli/registry.ts) registers the built-in kinds, a library user registers
 * theirs with registerKind (src/kinds/kind.ts) or registerKindReporter.
 */
const reporters = new Registry<KindReporter>('experiment kind the reporter knows');

/** registerKindReporter(reporter) makes a kind known to `report` and `compare`. Throws an Error when the name is taken.
 * O(1). */
export function registerKindReporter(reporter: KindReporter): void {
  reporters.register(reporter);
}

/** registeredKindReporters() lists the kind names known now, sorted. */
export function registeredKindReporters(): string[] {
  return reporters.names().sort();
}

/**
 * findKindReporter(name, where) returns the registered reporter; throws InputError
 * naming `where` (the results file) and the known kinds when none is registered. O(1).
 */
export function findKindReporter(name: string, where: string): KindReporter {
  return reporters.get(name, where);
}

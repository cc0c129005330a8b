import { inputError } from '../util/errors.js';
import { sequentialAuditReportKind } from './kinds/sequential-audit.js';
import { respirMinimalFlipsReportKind, respirReportKind } from '../respir/respir-report-kinds.js';
import type { ReportKind } from './report-kind.js';

/**
 * The experiment kinds the reporter knows out of the box. To add a kind: write its
 * ReportKind in your area (for example src/respir/report-kind.ts) and add one import
 * and one entry here. Library users can also call registerReportKind at run time.
 */
const builtInReportKinds: ReportKind[] = [sequentialAuditReportKind, respirReportKind, respirMinimalFlipsReportKind];

const registered = new Map<string, ReportKind>(builtInReportKinds.map((kind) => [kind.kind, kind]));

/**
 * registerReportKind(kind) makes a kind known to `report` and `compare`. Registering
 * a kind name again replaces the earlier entry. O(1).
 */
export function registerReportKind(kind: ReportKind): void {
  registered.set(kind.kind, kind);
}

/** registeredReportKinds() lists the kind names known now, sorted. */
export function registeredReportKinds(): string[] {
  return [...registered.keys()].sort();
}

/**
 * findReportKind(name, where) returns the registered kind; throws InputError naming
 * `where` (the results file) and the known kinds when none is registered. O(1).
 */
export function findReportKind(name: string, where: string): ReportKind {
  const kind = registered.get(name);
  if (kind === undefined) {
    throw inputError({
      where,
      expected: `an experiment kind the reporter knows (${registeredReportKinds().join(', ')})`,
      found: name,
    });
  }
  return kind;
}

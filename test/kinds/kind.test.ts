import { describe, expect, it } from 'vitest';
import { findKindRunner, kindRunners } from '../../src/harness/kind-runners.js';
import { builtInKinds, registerBuiltInKinds } from '../../src/kinds/index.js';
import { type ExperimentKind, registerKind } from '../../src/kinds/kind.js';
import { respirKind } from '../../src/kinds/respir/index.js';
import { sequentialAuditKind } from '../../src/kinds/sequential-audit/index.js';
import { registeredKindReporters } from '../../src/report/kind-reporters.js';

/** A copy of a built-in kind under another name (both halves renamed). */
function renamed(kind: ExperimentKind, name: string): ExperimentKind {
  return { name, run: { ...kind.run, name }, report: { ...kind.report, name } };
}

describe('registerKind(kind)', () => {
  it('registers both halves: the harness runs it and the reporter summarises it', () => {
    registerKind(renamed(sequentialAuditKind, 'audit-copy'));
    expect(findKindRunner('audit-copy')?.runReplicate).toBe(sequentialAuditKind.run.runReplicate);
    expect(registeredKindReporters()).toContain('audit-copy');
  });

  it('refuses a name already registered instead of replacing the kind', () => {
    expect(() => registerKind(sequentialAuditKind)).toThrow(/"sequential-audit" is already registered/);
    expect(findKindRunner('sequential-audit')).toBe(sequentialAuditKind.run);
  });

  it(
    'refuses halves named differently from the kind, a run half without its module, and a reporter reading ' +
      'columns nobody writes',
    () => {
      expect(() => registerKind({ ...renamed(respirKind, 'x1'), name: 'x2' })).toThrow(
        /halves named "x1" \(run\) and "x1" \(report\)/,
      );
      const noModule = renamed(respirKind, 'x3');
      expect(() => registerKind({ ...noModule, run: { ...noModule.run, module: '' } })).toThrow(/"x3" must set module/);
      const extra = renamed(respirKind, 'x4');
      expect(() =>
        registerKind({ ...extra, report: { ...extra.report, outcomeColumns: ['passed', 'nobody_writes_this'] } }),
      ).toThrow(/reports outcome columns its run half does not write: nobody_writes_this/);
    },
  );

  it('every built-in kind names its own module, so a worker thread imports that module only', () => {
    for (const kind of builtInKinds) expect(kind.run.module, kind.name).toMatch(/\/src\/kinds\/[^/]+\/run\.(ts|js)$/);
  });

  it('registerBuiltInKinds() twice registers each built-in kind once', () => {
    registerBuiltInKinds();
    const names = kindRunners().map((runner) => runner.name);
    expect(names.filter((name) => name === 'sequential-audit')).toHaveLength(1);
  });
});

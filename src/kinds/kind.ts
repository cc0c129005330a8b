import type { KindRunner } from '../harness/kind-runner.js';
import { registerKindRunner } from '../harness/kind-runners.js';
import type { KindReporter } from '../report/kind-reporter.js';
import { registerKindReporter } from '../report/kind-reporters.js';

/**
 * An experiment kind: what one replicate of an experiment is (its run half, which the
 * harness runs on worker threads) and how its results are summarised (its report
 * half, which the reporter uses), kept together in src/kinds/<kind>/. Both halves
 * carry the kind's name; the run half names its own module so that worker threads
 * import that module only.
 */
// biome-ignore lint/suspicious/noExplicitAny: kinds differ in their settings and context types
export interface ExperimentKind<Settings = any, Context = any> {
  readonly name: string;
  readonly run: KindRunner<Settings, Context>;
  readonly report: KindReporter;
}

/**
 * registerKind(kind) makes a kind known to the harness (loadConfig, plan, run,
 * merge) and to the reporter (report, compare). Throws an Error when a half's name
 * differs from the kind's, the run half names no module, the report half reads an
 * outcome column the run half does not write, or the name is already registered.
 * @param kind the kind's run and report halves, named alike
 * @example
 * registerKind({ name: 'coin', run: coinRunner, report: coinReporter });
 */
export function registerKind(kind: ExperimentKind): void {
  if (kind.run.name !== kind.name || kind.report.name !== kind.name) {
    throw new Error(
      `registerKind: kind "${kind.name}" has halves named "${kind.run.name}" (run) and "${kind.report.name}" (report)`,
    );
  }
  const written = new Set(kind.run.outcomeColumns.map((column) => column.name));
  const unknown = kind.report.outcomeColumns.filter((column) => !written.has(column));
  if (unknown.length > 0) {
    throw new Error(
      `registerKind: kind "${kind.name}" reports outcome columns its run half does not write: ${unknown.join(', ')}`,
    );
  }
  registerKindRunner(kind.run);
  registerKindReporter(kind.report);
}

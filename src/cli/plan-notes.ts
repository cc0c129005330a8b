import { availableParallelism } from 'node:os';
import type { ExperimentConfig } from '../harness/config.js';
import type { KindRunner } from '../harness/kind-runner.js';
import type { Plan } from '../harness/plan.js';
import { estimatePlan, ignoredAxes } from '../harness/plan-estimate.js';

function duration(seconds: number): string {
  if (seconds < 1) return 'under 1 s';
  if (seconds < 120) return `about ${seconds.toFixed(0)} s`;
  return seconds < 7200 ? `about ${(seconds / 60).toFixed(0)} min` : `about ${(seconds / 3600).toFixed(1)} h`;
}

function size(bytes: number): string {
  if (bytes < 1e6) return `${Math.max(1, Math.round(bytes / 1e3))} kB`;
  return bytes < 1e9 ? `${(bytes / 1e6).toFixed(1)} MB` : `${(bytes / 1e9).toFixed(2)} GB`;
}

/**
 * planNotes(config, kind, plan) is what `plan` prints below the cells: a warning per
 * grid setting that some cells ignore (with the kind's reason), then the expected run
 * time on one thread per core and the size of results.arrow, from a few replicates of
 * three cells timed now (preparing the cells, a pool's load, not counted).
 */
export async function planNotes(config: ExperimentConfig, kind: KindRunner, plan: Plan): Promise<string[]> {
  const lines: string[] = [''];
  for (const ignored of ignoredAxes(config, kind)) {
    const where =
      ignored.axis === ignored.setting ? `grid.${ignored.axis}` : `grid.${ignored.axis} (${ignored.setting})`;
    lines.push(
      `warning: ${where} cannot change the audits of ${ignored.cells} of ${ignored.of} cells (${ignored.why}); ` +
        `link it with the setting they use (grid.zip) or drop those cells`,
    );
  }
  const threads = availableParallelism();
  const origin = { configFile: config.file, baseDirectory: config.baseDirectory };
  const estimate = await estimatePlan(plan, kind, origin, threads);
  lines.push(
    `expected: ${duration(estimate.seconds)} on ${threads} threads ` +
      `(${estimate.millisecondsPerReplicate.toFixed(2)} ms per replicate, ` +
      `timed on ${estimate.sampledReplicates} replicates of ${estimate.sampledCells} cells), results.arrow ` +
      `about ${size(estimate.bytes)}`,
  );
  return lines;
}

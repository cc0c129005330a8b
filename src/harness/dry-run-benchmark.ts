import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../util/paths.js';
import { type ChunkPayload, encodeChunkPayload } from './chunk-payload.js';
import { loadConfig, parseOverride } from './config.js';
import type { ColumnValue, KindRunner, OutcomeColumn } from './kind-runner.js';
import { findKindRunner } from './kind-runners.js';
import { buildPlan, type Plan, type PlanCell, type PlanChunk, replicateSeed } from './plan.js';
import { runExperiment } from './run-experiment.js';
import type { ChunkRunner } from './worker-pool.js';

/** The figures of `fairaudit bench runner --dry`. */
export interface DryRunBenchmark {
  /** What ran, in words. */
  workload: string;
  replicates: number;
  cells: number;
  chunks: number;
  /** Seconds to build the plan (buildPlan of the loaded config). */
  planSeconds: number;
  /** Seconds of the whole run: plan, checkpoints, results.arrow, run.json. */
  seconds: number;
  resultsBytes: number;
  /** Peak resident set size of the process (process.resourceUsage().maxRSS), in MB (10^6 bytes). */
  peakRssMB: number;
}

/** An outcome value of the dry run: the column's first declared value, or a number from the replicate index. */
function fakeOutcome(column: OutcomeColumn, replicate: number): ColumnValue {
  switch (column.type) {
    case 'utf8':
      return column.values?.[replicate % column.values.length] ?? 'dry';
    case 'int32':
      return replicate % 4000;
    case 'float64':
      return replicate / 7;
    case 'bool':
      return replicate % 2 === 1;
  }
}

/**
 * dryChunkRunner(plan, kind) runs no audit: each chunk's payload holds the replicates'
 * real seeds (replicateSeed) and made-up outcome values of the kind's columns, so a run
 * exercises the plan, the checkpoints and the results writer at full size. One
 * "thread" (the main one), four chunks in flight.
 */
export function dryChunkRunner(plan: Plan, kind: KindRunner): ChunkRunner {
  return {
    size: 1,
    depth: 4,
    check: async () => undefined,
    run: async (chunk: PlanChunk, cell: PlanCell) => {
      const payload: ChunkPayload = { rows: chunk.count, seeds: new Array(chunk.count), outcomes: {} };
      for (const column of kind.outcomeColumns) payload.outcomes[column.name] = new Array(chunk.count);
      for (let i = 0; i < chunk.count; i++) {
        const replicate = chunk.firstReplicate + i;
        payload.seeds[i] = replicateSeed(plan.seed, cell.key, replicate);
        for (const column of kind.outcomeColumns) payload.outcomes[column.name][i] = fakeOutcome(column, replicate);
      }
      return encodeChunkPayload(kind.outcomeColumns, payload);
    },
    close: async () => undefined,
  };
}

/**
 * benchmarkRunnerDry(replicates) runs the quickstart grid (12 cells, chunks of 50)
 * with ⌈replicates / 12⌉ replicates per cell through the whole harness except the
 * audits (dryChunkRunner: real seeds, made-up outcomes): plan, checkpoints with their
 * checksums, results.arrow in batches of 65,536 rows, run.json; then reports the time
 * and the peak RSS of the process. The bound to check: peak RSS under 500 MB for 10^8
 * replicates. Writes into a temporary folder (10^8 replicates: ~23 GB of results and
 * ~9 GB of checkpoints at the peak), removed afterwards. Running time O(replicates).
 */
export async function benchmarkRunnerDry(replicates = 100_000_000): Promise<DryRunBenchmark> {
  const quickstartFile = join(packageRoot(), 'configs', 'quickstart.yaml');
  const cells = loadConfig(quickstartFile).cellCount;
  const perCell = Math.ceil(replicates / cells);
  const planStarted = process.hrtime.bigint();
  const config = loadConfig(quickstartFile, [
    parseOverride(`replicates=${perCell}`),
    parseOverride('experiment=bench-dry'),
  ]);
  const kind = findKindRunner(config.kind) as KindRunner;
  const plan = buildPlan(config, kind);
  const planSeconds = Number(process.hrtime.bigint() - planStarted) / 1e9;
  const folder = mkdtempSync(join(tmpdir(), 'fairaudit-bench-dry-'));
  try {
    const started = process.hrtime.bigint();
    const summary = await runExperiment(config, {
      outDirectory: folder,
      chunkRunner: (runPlan, runKind) => dryChunkRunner(runPlan, runKind),
    });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    return {
      workload:
        `the quickstart grid (${cells} cells, chunks of ${plan.chunkSize}) with ${perCell} replicates ` +
        `per cell, no audits (real seeds, made-up outcomes)`,
      replicates: summary.rows,
      cells: plan.cellCount,
      chunks: plan.chunkCount,
      planSeconds,
      seconds,
      resultsBytes: statSync(summary.resultsFile).size,
      peakRssMB: (process.resourceUsage().maxRSS * 1024) / 1e6,
    };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/**
 * fairaudit/harness: run experiments from configs (YAML or objects) on worker threads,
 * with checkpoints, shards and merges; write their reports; and plug in experiment
 * kinds of your own. Importing this module registers the built-in kinds
 * (sequential-audit, respir, respir-minimal-flips); register yours with registerKind
 * (its run half names its module, `import.meta.url` of a compiled file that exports
 * it, which worker threads import). Papers' layouts and presets are not part of it.
 */
import { registerBuiltInKinds } from '../kinds/index.js';

registerBuiltInKinds();

export { InputError } from '../util/errors.js';
export { createRandom, deriveSeed, type Random } from '../util/random.js';
export { type Infer, type Schema, schema, validate } from '../util/schema.js';
export {
  configFromObject,
  type ExperimentConfig,
  loadConfig,
  type Override,
  parseConfig,
  parseOverride,
  readConfigObject,
} from '../harness/config.js';
export { configReference } from '../harness/config-reference.js';
export type { ColumnType, ColumnValue, KindRunner, OutcomeColumn, SettingsOrigin } from '../harness/kind-runner.js';
export { findKindRunner, kindRunners, registerKindRunner } from '../harness/kind-runners.js';
export { type MergeSummary, mergeShards } from '../harness/merge-shards.js';
export {
  buildPlan,
  chunksOfShard,
  parseShard,
  type Plan,
  type PlanCell,
  type PlanChunk,
  type Shard,
} from '../harness/plan.js';
export { decodeResultTable, encodeResultTable } from '../harness/results-table.js';
export { defaultOutDirectory, type RunOptions, type RunSummary, runExperiment } from '../harness/run-experiment.js';
export type { CellResults, CellSummary, ResultRow } from '../report/cell-results.js';
export type { KindReporter } from '../report/kind-reporter.js';
export { registerKindReporter } from '../report/kind-reporters.js';
export { readResultsFolder } from '../report/results-folder.js';
export type { SummaryColumn, SummaryValue } from '../report/summary-table.js';
export { type ReportOptions, summariseRun, writeReport } from '../report/write-report.js';
export { builtInKinds, type ExperimentKind, registerBuiltInKinds, registerKind } from '../kinds/index.js';

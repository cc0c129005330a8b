/**
 * fairaudit/harness: run experiments from configs (YAML or objects) on worker threads,
 * with checkpoints, shards and merges; write their reports; and plug in experiment
 * kinds of your own. Importing this module registers the built-in kinds (builtInKinds);
 * register yours with registerKind (its run half names its module, `import.meta.url`
 * of a compiled file that exports it, which worker threads import). Papers' layouts and
 * presets, the plan and the result codecs are not part of it.
 */
import { registerBuiltInKinds } from '../kinds/index.js';

registerBuiltInKinds();

export { configFromObject, type ExperimentConfig, loadConfig } from '../harness/config.js';
export type { ColumnType, KindRunner, OutcomeColumn, SettingsOrigin } from '../harness/kind-runner.js';
export { kindRunners } from '../harness/kind-runners.js';
export { mergeShards } from '../harness/merge-shards.js';
export { type RunOptions, type RunSummary, runExperiment } from '../harness/run-experiment.js';
export { builtInKinds, type ExperimentKind, registerKind } from '../kinds/index.js';
export type { CellResults, CellSummary } from '../report/cell-results.js';
export type { KindReporter } from '../report/kind-reporter.js';
export { readResultsFolder } from '../report/results-folder.js';
export type { SummaryColumn } from '../report/summary-table.js';
export { type ReportOptions, summarize, writeReport } from '../report/write-report.js';
export { deriveSeed, type Random } from '../util/random.js';
export { type Infer, type Schema, schema } from '../util/schema.js';

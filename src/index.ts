/**
 * fairaudit's public API. Internals are not re-exported; each area adds its public
 * functions here.
 */
export { InputError } from './util/errors.js';
export { createRandom, deriveSeed, type Random } from './util/random.js';
export type { AccessRegime } from './audit/access-regime.js';
export type { FairnessMetric } from './audit/metric.js';
export type { AuditPool } from './audit/pool.js';
export { readPoolFile, writePoolFile, type ReadPoolOptions } from './audit/pool-io.js';
export { oracleDecision, prepareAudit, type PreparedAudit } from './audit/prepare-audit.js';
export {
  runSequentialAudit,
  type SequentialAuditResult,
  type SequentialDecision,
} from './audit/sequential-audit.js';
export { type AuditSummary, summarizeAudits } from './audit/summarize-audits.js';
export { type BernoulliCounts, bernoulliGlr } from './stats/bernoulli-glr.js';
export { BernoulliGlrStream } from './stats/bernoulli-glr-stream.js';
export { countGapDecision, countGapExceedsTolerance, decimalFraction } from './stats/count-gap-comparison.js';
export { type FixedSampleDecision, fixedSampleDecision } from './stats/fixed-sample-decision.js';
export { type GaussianSums, gaussianGlr } from './stats/gaussian-glr.js';
export { GaussianGlrStream } from './stats/gaussian-glr-stream.js';
export type { GlrStream } from './stats/glr-stream.js';
export { type SequentialThresholds, sequentialThresholds } from './stats/thresholds.js';
export type { CellResults, CellSummary, ResultRow, SettingValue } from './report/cell-results.js';
export type { ChartSpec } from './report/charts/chart-spec.js';
export { type ComparisonRow, comparePublished, regressionFailures } from './report/compare-published.js';
export { layoutPaperTable, type PaperTableLayout, siblingCell } from './report/paper-table.js';
export { registerPaperTable } from './report/paper-tables.js';
export type { PaperLayout, PaperLayoutParts } from './report/paper-layout.js';
export { registerPaperLayout } from './report/paper-layouts.js';
export { loadPublishedFolder, type PublishedCell, type PublishedFile } from './report/published.js';
export type { KindReporter } from './report/kind-reporter.js';
export { registerKindReporter } from './report/kind-reporters.js';
export { readResultsFolder } from './report/results-folder.js';
export type { SummaryColumn, SummaryTable } from './report/summary-table.js';
export { type ReportOptions, summariseRun, writeReport } from './report/write-report.js';
export type { DatasetTable, ProtectedAttribute, RawColumn, SourceFile } from './data/dataset-table.js';
export { type DatasetAvailability, datasetAvailability } from './data/dataset-availability.js';
export { type DatasetSummary, summarizeDataset } from './data/dataset-summary.js';
export { type DownloadProgress, type FetchedFile, type FetchOptions, fetchDataset } from './data/fetch-dataset.js';
export { type LoadDatasetOptions, loadDataset } from './data/load-dataset.js';
export { type PreparedSplit, prepareSplit, type SplitOptions, type SplitScheme } from './data/prepare-split.js';
export type { Preprocessor } from './data/preprocessor.js';
export { datasetNames } from './data/registry.js';
export type { TabularData } from './data/tabular.js';
export { type PirBenchmarkRow, benchmarkPir } from './pir/benchmark-pir.js';
export { type ObliviousAuditOptions, type ObliviousAuditResult, drawAuditSet, runObliviousAudit } from './pir/oblivious-audit.js';
export { paperBTableOne, paperBTableOneSizes, writePaperBTableOne } from '../papers/paper-b/table-1.js';
export { choosePirParameters, noiseBound, type PirParameters } from './pir/parameters.js';
export { PirClient } from './pir/pir-client.js';
export { PirServer } from './pir/pir-server.js';
export { PirVerificationError } from './pir/pir-verification-error.js';
export { ProviderConnection } from './pir/provider-connection.js';
export { startPoolProvider } from './pir/provider-from-pool.js';
export { startProviderService } from './pir/provider-service.js';
export { type ExperimentConfig, loadConfig, type Override, parseConfig, parseOverride } from './harness/config.js';
export { configReference } from './harness/config-reference.js';
export type { ColumnType, ColumnValue, KindRunner, OutcomeColumn, SettingsOrigin } from './harness/kind-runner.js';
export { kindRunners, findKindRunner } from './harness/kind-runners.js';
export { type MergeSummary, mergeShards } from './harness/merge-shards.js';
export { buildPlan, chunksOfShard, parseShard, type Plan, type PlanCell, type PlanChunk, type Shard } from './harness/plan.js';
export { decodeResultTable, encodeResultTable } from './harness/results-table.js';
export type { RunRecord } from './harness/run-record.js';
export { defaultOutDirectory, type RunOptions, type RunSummary, runExperiment } from './harness/run-experiment.js';
export { type Infer, type Schema, schema, validate } from './util/schema.js';
export { generateSyntheticPool, type SyntheticPoolSpec } from './data/synthetic-pool.js';
export { bestManipulation, fewestFlipsToGap, type Manipulation } from './respir/adversary.js';
export { finitePopulationMargin, hoeffdingMargin } from './respir/concentration-margin.js';
export { detectionProbability } from './respir/detection-probability.js';
export { equalOpportunityFlipBound } from './respir/equal-opportunity-flip-bound.js';
export { finitePopulationFlipBound } from './respir/finite-population-flip-bound.js';
export type { GroupCounts } from './respir/group-counts.js';
export { type ManipulationBounds, type ManipulationSetting, manipulationBounds } from './respir/manipulation-bounds.js';
export { minimalPassingFlips } from './respir/minimal-passing-flips.js';
export { type ObliviousAuditSetup, drawObliviousAudit, passRate, prepareObliviousAudit } from './respir/oblivious-audit-simulation.js';
export { type RespirFlips, respirFlipBound } from './respir/respir-flip-bound.js';
export { respirRunner, respirMinimalFlipsRunner } from './kinds/respir/run.js';
export { vanillaFlipBound } from './respir/vanilla-flip-bound.js';
export type { ModelCard, GroupRates } from './models/model-card.js';
export type { MlpModelSpec, ScoredModel } from './models/mlp-model.js';
export type { BoostedTreesSpec } from './models/boosted-trees.js';
export type { ModelPreset } from './models/model-preset.js';
export { syntheticTabularData, type SyntheticTabularShape } from './models/synthetic-tabular.js';
export { type ModelTrainingOptions, type TrainedModel, trainFromConfig, trainModels, trainModelsOnSplit } from './models/train-models.js';
export { loadModelTrainingConfig, type ModelTrainingConfig } from './models/training-config.js';

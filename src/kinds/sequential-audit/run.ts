import { auditSettingsProblem, auditSettingsProperties } from '../../audit/audit-settings.js';
import { testOf } from '../../audit/audit-test.js';
import { type AuditTest, buildAuditTest } from '../../audit/build-audit-test.js';
import { oracleDecision, type PreparedAudit, prepareAudit } from '../../audit/prepare-audit.js';
import { runAudit, runsPaperALoop } from '../../audit/run-audit.js';
import { runSequentialAudit } from '../../audit/sequential-audit.js';
import { loadPoolSource, poolSourceLabel, poolSourceSchema } from '../../data/pool-source.js';
import { calibratePoolSourceCells } from '../../data/pool-source-calibrations.js';
import type { KindRunner, OutcomeColumn } from '../../harness/kind-runner.js';
import { canonicalJson } from '../../util/canonical-json.js';
import type { Random } from '../../util/random.js';
import { type Infer, schema } from '../../util/schema.js';
import { sequentialAuditRowProblem } from './row-problem.js';

/**
 * The settings of one sequential-audit cell: the pool, then an audit's settings
 * (src/audit/audit-settings.ts, the one vocabulary shared with `fairaudit audit` and
 * auditPool). The schema is the single source of truth.
 */
export const sequentialAuditCellSettings = schema.object(
  { pool: poolSourceSchema, ...auditSettingsProperties },
  { description: 'Settings of a sequential-audit cell.', check: auditSettingsProblem },
);

export type SequentialAuditCellSettings = Infer<typeof sequentialAuditCellSettings>;

const outcomeColumns: readonly OutcomeColumn[] = [
  {
    name: 'decision',
    type: 'utf8',
    description: 'The sequential decision: reject, accept or inconclusive.',
    values: ['reject', 'accept', 'inconclusive'],
  },
  { name: 'queries', type: 'int32', description: 'Queries made before stopping.' },
  {
    name: 'statistic',
    type: 'float64',
    description: 'The final signed GLR statistic (positive: evidence of violation).',
  },
  { name: 'oracle_gap', type: 'float64', description: "The hard-decision gap of the metric's whole pool." },
  {
    name: 'oracle_decision',
    type: 'utf8',
    description: 'reject when oracle_gap > tolerance, else accept.',
    values: ['reject', 'accept'],
  },
  {
    name: 'fixed_decision',
    type: 'utf8',
    description:
      "The fixed-sample decision on the first min(B, pool) rows of the replicate's order: their plug-in gap of " +
      'the observed values against tolerance (decisions), scoreTolerance (scores) or logitTolerance (logits).',
    values: ['reject', 'accept'],
  },
  { name: 'fixed_samples', type: 'int32', description: 'Rows the fixed-sample decision used: min(B, pool size).' },
  {
    name: 'pool_size',
    type: 'int32',
    description: "Size of the metric's pool (all rows for sp, label = 1 rows for eo).",
  },
  {
    name: 'proxy_gap',
    type: 'float64',
    description:
      "The group gap of mean scores or logits in the metric's pool (score and logit access), NaN for decision access.",
  },
];

/** A cell's context: the prepared audit, and the built test unless paper A's own loop runs (wald-glr, random order). */
export interface SequentialAuditContext {
  readonly prepared: PreparedAudit;
  readonly auditTest: AuditTest | null;
}

/** Whether a cell runs paper A's test through runSequentialAudit itself (no test object needed). */
function paperAOwnLoop(settings: SequentialAuditCellSettings): boolean {
  return runsPaperALoop(testOf(settings), settings.order);
}

/** The settings that choose and size a built test (for the context key of the other cells). */
function testKey(settings: SequentialAuditCellSettings) {
  const { pool: _pool, ...audit } = settings;
  return audit;
}

/**
 * The sequential-audit kind (paper A's GLR, and the error-controlled tests): each replicate draws the
 * metric's pool in its own seeded order (random, or balanced), runs the cell's sequential
 * test (paper A's GLR with Wald's thresholds unless `test` / `thresholds` say otherwise)
 * until it decides or min(B, pool) queries, and records the fixed-sample decision on the
 * same order. Paper A's test in random order runs runSequentialAudit itself, so its rows
 * are exactly paper A's. Cells with thresholds: calibrated are calibrated before any
 * worker starts (beforeRun, on worker threads, into the calibration cache).
 */
export const sequentialAuditRunner: KindRunner<SequentialAuditCellSettings, SequentialAuditContext> = {
  name: 'sequential-audit',
  module: import.meta.url,
  description:
    "Sequential fairness audits (paper A's GLR by default; calibrated GLR, betting) on a pool file or a " +
    'synthetic pool.',
  settings: sequentialAuditCellSettings,
  outcomeColumns,
  recordedSettings: ['test', 'thresholds', 'order'],
  ignoredSetting(key, settings) {
    // Each access regime tests against its own tolerance (DESIGN.md: decision uses δ, score and logit their own).
    const own = { decision: 'tolerance', score: 'scoreTolerance', logit: 'logitTolerance' } as const;
    const access = settings.access as keyof typeof own;
    const used = own[access];
    if (used === undefined || !Object.values(own).includes(key as (typeof own)[keyof typeof own]) || key === used)
      return null;
    return key === 'tolerance'
      ? `${access} access tests against ${used}; tolerance moves only the oracle decision (and so the accuracy)`
      : `${access} access tests against ${used}`;
  },
  contextKey: (settings) =>
    paperAOwnLoop(settings)
      ? canonicalJson({ pool: settings.pool, metric: settings.metric, access: settings.access })
      : canonicalJson({ pool: settings.pool, test: testKey(settings) }),
  async prepare(settings, origin) {
    const prepared = prepareAudit(
      await loadPoolSource(settings.pool, settings.access, origin),
      settings.metric,
      settings.access,
    );
    return { prepared, auditTest: paperAOwnLoop(settings) ? null : buildAuditTest(prepared, settings) };
  },
  beforeRun: calibratePoolSourceCells,
  runReplicate({ prepared, auditTest }, settings, random: Random) {
    const result =
      auditTest === null
        ? runSequentialAudit(prepared, settings, random)
        : runAudit(prepared, settings, auditTest, settings.order ?? 'random', random);
    return {
      decision: result.decision,
      queries: result.queries,
      statistic: result.statistic,
      oracle_gap: prepared.oracleGap,
      oracle_decision: oracleDecision(prepared, settings.tolerance),
      fixed_decision: result.fixedDecision ?? 'accept',
      fixed_samples: result.fixedSamples,
      pool_size: prepared.size,
      proxy_gap: prepared.proxyGap,
    };
  },
  labelOf: poolSourceLabel,
  rowProblem: sequentialAuditRowProblem,
};

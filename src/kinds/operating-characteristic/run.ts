import { auditSettingsProblem, auditSettingsProperties, toleranceOfAccess } from '../../audit/audit-settings.js';
import { testOf } from '../../audit/audit-test.js';
import { type AuditTest, buildAuditTest } from '../../audit/build-audit-test.js';
import { type MovedPool, redecideToGap, shiftToProxyGap } from '../../audit/move-gap.js';
import type { AuditPool } from '../../audit/pool.js';
import { type PreparedAudit, prepareAudit } from '../../audit/prepare-audit.js';
import { runsPaperALoop } from '../../audit/run-audit.js';
import { runTestAudit } from '../../audit/run-test-audit.js';
import { runSequentialAudit } from '../../audit/sequential-audit.js';
import { loadPoolSource, poolSourceLabel, poolSourceSchema } from '../../data/pool-source.js';
import { calibratePoolSourceCells } from '../../data/pool-source-calibrations.js';
import type { KindRunner, OutcomeColumn } from '../../harness/kind-runner.js';
import { compareCountDifference } from '../../stats/count-gap-comparison.js';
import { canonicalJson } from '../../util/canonical-json.js';
import { createRandom, deriveSeed, type Random } from '../../util/random.js';
import { type Infer, schema } from '../../util/schema.js';
import { operatingCharacteristicRowProblem } from './row-problem.js';

/**
 * The settings of one operating-characteristic cell: the pool and an audit's settings
 * (src/audit/audit-settings.ts, the one vocabulary), plus the true gap the pool is moved
 * to before it is audited and how.
 */
export const operatingCharacteristicSettings = schema.object(
  {
    pool: poolSourceSchema,
    ...auditSettingsProperties,
    gap: schema.optional(
      schema.number({
        description:
          'The true signed gap (group b minus group a) the pool is moved to before it is audited: the ' +
          'hard-decision gap for decision access (or move re-decide), the mean score or logit gap for score and ' +
          'logit ' +
          'access; absent (null in a grid): the pool as it is. Vary it in the grid over both sides of the tolerance.',
      }),
    ),
    gapUnit: schema.enumOf(['absolute', 'tolerance'], {
      default: 'absolute',
      description:
        'absolute: gap is the signed gap itself; tolerance: gap is a multiple of the tolerance of the gap it ' +
        "moves (δ for re-decide, scoreTolerance or logitTolerance for shift), on the side of the pool's own gap " +
        '(0: gap ' +
        '0; 1: exactly the tolerance).',
    }),
    move: schema.optional(
      schema.enumOf(['re-decide', 'shift'], {
        description:
          'How the gap is moved (src/audit/move-gap.ts): re-decide (default for decision access) flips the ' +
          'decisions of rows of group b, keeping group sizes, labels and group a; shift (default for score and logit ' +
          "access) adds one constant to group b's scores or logits, keeping their spread and every decision. " +
          'Where every ' +
          'score is exactly 0 or 1 and equal to its decision (a hard classifier), score access re-decides by ' +
          'default, in ' +
          'units of the score tolerance: such scores cannot be shifted.',
      }),
    ),
    moveSeed: schema.seed({
      default: 'move',
      description:
        'Seed of the rows re-decided (one moved pool per pool, metric and gap, shared by the access regimes and ' +
        'tests).',
    }),
  },
  {
    description: 'Settings of an operating-characteristic cell.',
    check: (value) => {
      const problem = auditSettingsProblem(value);
      if (problem) return problem;
      if (value.gapUnit === 'absolute' && value.gap !== undefined && !(Math.abs(value.gap as number) < 1)) {
        return { key: 'gap', expected: 'a signed gap in (-1, 1) (gapUnit absolute)', found: value.gap };
      }
      if (value.move === 'shift' && value.access === 'decision') {
        return {
          key: 'move',
          expected: 're-decide with decision access (shift moves scores or logits)',
          found: value.move,
        };
      }
      return undefined;
    },
  },
);

export type OperatingCharacteristicSettings = Infer<typeof operatingCharacteristicSettings>;

const outcomeColumns: readonly OutcomeColumn[] = [
  { name: 'decision', type: 'utf8', description: 'The sequential decision: reject, accept or inconclusive.' },
  { name: 'queries', type: 'int32', description: 'Queries made before stopping.' },
  {
    name: 'true_gap',
    type: 'float64',
    description:
      "The moved pool's signed gap of what the test tests (hard decisions for decision access, mean scores or " +
      'logits for score and logit access).',
  },
  {
    name: 'truth',
    type: 'utf8',
    description:
      'compliant when |true_gap| < the tolerance of the test, violating when >, boundary when equal (exactly, on ' +
      'counts, for decisions).',
  },
  { name: 'decision_gap', type: 'float64', description: "The moved pool's signed hard-decision gap." },
  {
    name: 'proxy_gap',
    type: 'float64',
    description: "The moved pool's signed score or logit mean gap (NaN for decision access).",
  },
  {
    name: 'changed_rows',
    type: 'int32',
    description: 'Rows whose decision (re-decide) or value (shift) the move changed.',
  },
];

/** A cell's context: the moved pool prepared, the test (null: paper A's own loop), the pool's truth. */
export interface OperatingCharacteristicContext {
  readonly prepared: PreparedAudit;
  readonly auditTest: AuditTest | null;
  readonly trueGap: number;
  readonly truth: 'compliant' | 'violating' | 'boundary';
  readonly decisionGap: number;
  readonly proxyGap: number;
  readonly changedRows: number;
}

/**
 * The signed gap a cell moves its pool to: `gap` itself, or with gapUnit tolerance
 * gap x the tolerance of the gap the move changes (δ for re-decide, the proxy tolerance
 * for shift) on the side of the pool's own gap (+ when it is 0).
 */
function targetGap(
  settings: OperatingCharacteristicSettings,
  unmoved: PreparedAudit,
  move: Move,
  tolerance: number,
): number {
  const gap = settings.gap as number;
  if (settings.gapUnit === 'absolute') return gap;
  const own = move === 're-decide' ? unmoved.oracleSignedGap : unmoved.meanGap;
  return (own < 0 ? -1 : 1) * gap * tolerance;
}

type Move = 're-decide' | 'shift';

/**
 * Whether every score is exactly 0 or 1 and equal to its decision (a hard classifier, e.g.
 * a deployed draw of the reduction whose outputs saturate): such scores are the decisions,
 * a shift on the logit scale cannot move them, so score access re-decides rows by default
 * and judges the truth on counts. O(pool size).
 */
function scoresAreDecisions(pool: AuditPool): boolean {
  const score = pool.score;
  if (score === null) return false;
  for (let row = 0; row < pool.size; row++) if (score[row] !== pool.decision[row]) return false;
  return true;
}

/**
 * Moved pools made in this thread, by pool, folder, metric, move and target: the cells
 * that differ only in their test (or, for re-decide, their access regime) share one.
 * Read-only once made.
 */
const movedPools = new Map<string, MovedPool>();

/** The pool moved to `target` (re-decided rows seeded by the pool, metric and target), made once per thread. */
function movedPool(
  settings: OperatingCharacteristicSettings,
  pool: AuditPool,
  move: Move,
  target: number,
  tolerance: number,
  baseDirectory: string,
): MovedPool {
  // A target at or beyond the tolerance stays violating and one inside stays compliant, whatever whole rows allow.
  const rounding = Math.abs(target) >= tolerance ? 'outward' : 'inward';
  const key = canonicalJson({
    pool: settings.pool,
    baseDirectory,
    metric: settings.metric,
    move,
    target,
    rounding,
    column: move === 'shift' ? settings.access : null,
    seed: settings.moveSeed,
  });
  let moved = movedPools.get(key);
  if (moved === undefined) {
    const random = createRandom(
      deriveSeed(settings.moveSeed, 'move', canonicalJson(settings.pool), settings.metric, target),
    );
    moved =
      move === 're-decide'
        ? redecideToGap(pool, settings.metric, target, random, 1, rounding)
        : shiftToProxyGap(pool, settings.metric, settings.access as 'score' | 'logit', target);
    movedPools.set(key, moved);
  }
  return moved;
}

/** The side of |gap| - tolerance, with |difference| <= 1e-9 (relative) as 0: the boundary. */
function floatingSide(difference: number, tolerance: number): number {
  return Math.abs(difference) <= 1e-9 * Math.max(1, tolerance) ? 0 : Math.sign(difference);
}

/**
 * The truth of a prepared pool against the test's tolerance: on counts (decision access,
 * or scores that are the decisions) the sign of |gap| - tolerance exactly
 * (compareCountDifference, the tolerance as the decimal it prints as), for other scores
 * and for logits in floating point, where a gap within 1e-9 of the tolerance (relative) is
 * the boundary: a shift reaches its target to 1e-13, not to the last bit.
 */
function truthOf(
  prepared: PreparedAudit,
  trueGap: number,
  tolerance: number,
  onCounts: boolean,
): OperatingCharacteristicContext['truth'] {
  const sign = onCounts
    ? trueGap >= 0
      ? compareCountDifference(prepared.countA, prepared.totalA, prepared.countB, prepared.totalB, tolerance)
      : compareCountDifference(prepared.countB, prepared.totalB, prepared.countA, prepared.totalA, tolerance)
    : floatingSide(Math.abs(trueGap) - tolerance, tolerance);
  return sign < 0 ? 'compliant' : sign > 0 ? 'violating' : 'boundary';
}

/**
 * The operating-characteristic kind (error rates and queries over true gaps): each replicate audits a pool moved to a
 * given true gap (re-deciding rows of group b, or shifting its scores or logits; see
 * src/audit/move-gap.ts for what each keeps) with the cell's test, so a grid over `gap`
 * on both sides of the tolerance estimates P(reject), P(accept), P(inconclusive) and the
 * query distribution as functions of the true gap. The test's thresholds (calibrated-glr)
 * are those of the unmoved pool's setting: calibrated once, in the cache, before any
 * worker starts (beforeRun).
 */
export const operatingCharacteristicRunner: KindRunner<
  OperatingCharacteristicSettings,
  OperatingCharacteristicContext
> = {
  name: 'operating-characteristic',
  module: import.meta.url,
  description:
    'Operating characteristics of a sequential test: decisions and queries on a pool moved to a grid of true gaps.',
  settings: operatingCharacteristicSettings,
  outcomeColumns,
  recordedSettings: ['test', 'thresholds', 'order'],
  contextKey: (settings) => canonicalJson(settings),
  async prepare(settings, origin) {
    const pool = await loadPoolSource(settings.pool, settings.access, origin);
    const unmoved = prepareAudit(pool, settings.metric, settings.access);
    const auditTest = runsPaperALoop(testOf(settings), settings.order) ? null : buildAuditTest(unmoved, settings);
    const tolerance = toleranceOfAccess(settings, settings.access);
    let moved: MovedPool = { pool, changedRows: 0 };
    const hardScores = settings.access === 'score' && scoresAreDecisions(pool);
    const onCounts = settings.access === 'decision' || hardScores;
    if (settings.gap !== undefined) {
      const move: Move = settings.move ?? (settings.access === 'decision' || hardScores ? 're-decide' : 'shift');
      // A shift moves the gap the test tests (its tolerance); re-deciding moves the hard-decision
      // gap (δ), but where it was chosen because the scores are the decisions, that gap is the score gap.
      const moveTolerance =
        move === 'shift' || (hardScores && settings.move === undefined) ? tolerance : settings.tolerance;
      moved = movedPool(
        settings,
        pool,
        move,
        targetGap(settings, unmoved, move, moveTolerance),
        moveTolerance,
        origin.baseDirectory,
      );
    }
    const prepared = prepareAudit(moved.pool, settings.metric, settings.access);
    const decisionGap = prepared.oracleSignedGap;
    const proxyGap = prepared.family === 'gaussian' ? prepared.meanGap : Number.NaN;
    const trueGap = settings.access === 'decision' ? decisionGap : proxyGap;
    return {
      prepared,
      auditTest,
      trueGap,
      truth: truthOf(prepared, trueGap, tolerance, onCounts),
      decisionGap,
      proxyGap,
      changedRows: moved.changedRows,
    };
  },
  beforeRun: calibratePoolSourceCells,
  runReplicate(context, settings, random: Random) {
    const { prepared, auditTest } = context;
    const result =
      auditTest === null
        ? runSequentialAudit(prepared, settings, random, { fixedSample: false })
        : runTestAudit(prepared, auditTest.test, settings.budget, settings.order ?? 'random', random);
    return {
      decision: result.decision,
      queries: result.queries,
      true_gap: context.trueGap,
      truth: context.truth,
      decision_gap: context.decisionGap,
      proxy_gap: context.proxyGap,
      changed_rows: context.changedRows,
    };
  },
  labelOf: poolSourceLabel,
  rowProblem: operatingCharacteristicRowProblem,
};

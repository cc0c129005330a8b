import { inputError } from '../util/errors.js';
import { createRandom, deriveSeed } from '../util/random.js';
import type { AccessRegime } from './access-regime.js';
import { createSequentialTest, type TestSettings } from './create-sequential-test.js';
import type { FairnessMetric } from './metric.js';
import { type GapRounding, type MovedPool, redecideToGap, shiftToProxyGap } from './move-gap.js';
import { type OperatingPoint, operatingPoint, simulateAudits } from './operating-characteristics.js';
import type { AuditPool } from './pool.js';
import { prepareAudit } from './prepare-audit.js';

/** How an operating characteristic is computed over a grid of gaps. */
export interface OperatingCurveSettings {
  readonly metric: FairnessMetric;
  readonly access: AccessRegime;
  /** Target signed gaps (b minus a): hard-decision gaps for 're-decide', proxy gaps for 'shift'. */
  readonly gaps: readonly number[];
  /** 're-decide' (redecideToGap, group b) or 'shift' (shiftToProxyGap; score / logit access). */
  readonly move: 're-decide' | 'shift';
  readonly testSettings: TestSettings;
  readonly budget: number;
  readonly replicates: number;
  readonly seed: string;
}

/** One gap of the curve: the moved pool's gaps and the test's operating point there. */
export interface OperatingCurvePoint {
  readonly targetGap: number;
  /** The moved pool's signed hard-decision gap and, for score / logit access, signed proxy gap. */
  readonly decisionGap: number;
  readonly proxyGap: number;
  readonly changedRows: number;
  readonly point: OperatingPoint;
}

/** Decision access: a gap at or beyond δ is reached from outside, one inside δ from inside (redecideToGap's rounding).
 * */
function sideOf(gap: number, settings: OperatingCurveSettings): GapRounding {
  if (settings.access !== 'decision') return 'nearest';
  return Math.abs(gap) >= settings.testSettings.tolerance ? 'outward' : 'inward';
}

/**
 * operatingCurve(pool, settings) estimates the test's operating characteristic over a
 * grid of true gaps: for each target gap it moves the pool's gap (re-deciding rows of
 * group b, seeded by deriveSeed(seed, 'move', gap), or shifting group b's scores / logits;
 * see move-gap.ts for what each keeps), prepares the moved pool, builds the test
 * (createSequentialTest) and runs `replicates` audits (simulateAudits with seed
 * deriveSeed(seed, gap)), giving P(reject), P(accept), P(inconclusive) with standard errors
 * and the query distribution. O(gaps x (pool size + replicates x queries)). Throws
 * InputError for bad settings (a 'shift' with decision access, replicates or budget not an
 * integer >= 1, and what prepareAudit, move-gap and createSequentialTest refuse).
 */
export function operatingCurve(pool: AuditPool, settings: OperatingCurveSettings): OperatingCurvePoint[] {
  if (settings.move === 'shift' && settings.access === 'decision') {
    throw inputError({
      where: 'operatingCurve: move',
      expected: '"re-decide" for decision access ("shift" moves scores or logits)',
      found: settings.move,
    });
  }
  for (const key of ['budget', 'replicates'] as const) {
    const value = settings[key];
    if (!(Number.isSafeInteger(value) && value >= 1))
      throw inputError({ where: `operatingCurve: ${key}`, expected: 'an integer >= 1', found: value });
  }
  return settings.gaps.map((gap) => {
    const moved: MovedPool =
      settings.move === 're-decide'
        ? redecideToGap(
            pool,
            settings.metric,
            gap,
            createRandom(deriveSeed(settings.seed, 'move', gap)),
            1,
            sideOf(gap, settings),
          )
        : shiftToProxyGap(pool, settings.metric, settings.access as 'score' | 'logit', gap);
    const prepared = prepareAudit(moved.pool, settings.metric, settings.access);
    const test = createSequentialTest(prepared, settings.testSettings);
    const outcomes = simulateAudits(
      prepared,
      test,
      settings.budget,
      settings.testSettings.order,
      deriveSeed(settings.seed, gap),
      0,
      settings.replicates,
    );
    const proxy = prepared.family === 'gaussian' ? prepared.meanGap : Number.NaN;
    return {
      targetGap: gap,
      decisionGap: prepared.oracleSignedGap,
      proxyGap: proxy,
      changedRows: moved.changedRows,
      point: operatingPoint(outcomes),
    };
  });
}

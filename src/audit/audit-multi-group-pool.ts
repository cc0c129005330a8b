import type { MultiGroupAggregation } from '../stats/multi-group/compliance-window.js';
import { inputError } from '../util/errors.js';
import { createRandom, deriveSeed } from '../util/random.js';
import { validateInput } from '../util/schema.js';
import { type AuditPoolSettings, auditPoolSettingsSchema, withDefaultTest } from './audit-pool.js';
import { type Verdict, verdictOf, verdictText } from './audit-verdict.js';
import {
  createEqualizedOddsTest,
  createMultiGroupTest,
  type MultiGroupTest,
  type MultiGroupTestOptions,
} from './create-multi-group-test.js';
import { equalizedOddsRows } from './equalized-odds-rows.js';
import { type GroupRateOracle, groupRateOracle } from './group-oracle.js';
import type { GroupMetric, GroupRate } from './metric.js';
import {
  type MultiGroupAuditResult,
  type MultiGroupRows,
  multiGroupRows,
  runMultiGroupAudit,
} from './multi-group-audit.js';
import { type AuditPool, groupCountOf } from './pool.js';
import type { SequentialDecision } from './sequential-audit.js';

/** What `fairaudit audit` reports for a pool of named groups (src/audit/audit-output-schema.ts, multi-group shape). */
export interface MultiGroupAuditSummary {
  readonly metric: GroupMetric;
  /** difference: H0 max − min ≤ tolerance; ratio: H0 min ≥ ratio · max. */
  readonly aggregation: MultiGroupAggregation;
  /** ρ of the ratio null (aggregation ratio only). */
  readonly ratio?: number;
  readonly access: 'decision' | 'score';
  readonly groups: number;
  readonly groupNames: readonly string[];
  /** The minimum-size rule and the groups it excluded, when one was asked for. */
  readonly groupSizeRule?: AuditPool['groupSizeRule'];
  /** Rows of the metric's pool (eodds: every row). */
  readonly poolSize: number;
  /** Each group's rows, decision-1 rows, rate and impact ratio on the metric's pool (eodds: the TPR's, label 1);
   * max − min and min / max. */
  readonly oracle: GroupRateOracle;
  /** eodds only: the false-positive rate's oracle (label-0 rows). */
  readonly falsePositiveOracle?: GroupRateOracle;
  /** The oracle's decision against the null: the difference against δ, or min / max against ρ (eodds: either rate's
   * violation is a reject). */
  readonly oracleDecision: 'reject' | 'accept';
  readonly hypothesis: string;
  readonly guarantee: string;
  /** The K-group test that ran: betting (anytime-valid) or wald-glr. */
  readonly test: 'betting' | 'wald-glr';
  readonly tolerance: number;
  readonly budget: number;
  readonly alpha: number;
  readonly beta: number;
  readonly order: 'random';
  readonly seed: string;
  readonly replicates: number;
  /** One replicate: its decision, verdict in words and queries. */
  readonly decision?: SequentialDecision;
  readonly verdict?: Verdict;
  readonly verdictText?: string;
  readonly queries?: number;
  /** Several replicates: the counts of their decisions and the mean queries. */
  readonly decisions?: { readonly reject: number; readonly accept: number; readonly inconclusive: number };
  readonly meanQueries?: number;
}

/** A rate's name in H0: "SP rates", "PE mean scores (false-positive, label 0)". */
function rateWords(rate: GroupRate, access: string): string {
  const what = access === 'score' ? 'mean scores' : 'rates';
  if (rate === 'pe') return `PE ${what} (false-positive, label 0)`;
  return rate === 'eo' ? `EO ${what} (true-positive, label 1)` : `SP ${what}`;
}

/**
 * multiGroupHypothesisText(metric, access, groups, bound, aggregation) is H0 over K groups in
 * words, naming the metric and the aggregation: "H0 max − min of the SP rates over 10 groups ≤
 * 0.05", "H0 min ≥ 0.8 · max of the PE rates (false-positive, label 0) over 3 groups (impact
 * ratio ≥ 0.8)"; eodds names both rates and holds for each. O(1).
 * @param metric the group metric
 * @param access decision or score (mean scores)
 * @param groups K
 * @param bound δ (difference) or ρ (ratio)
 * @param aggregation difference or ratio
 * @returns H0 in words
 * @example multiGroupHypothesisText('sp', 'decision', 3, 0.05) // 'H0 max − min of the SP rates over 3 groups ≤ 0.05'
 */
export function multiGroupHypothesisText(
  metric: GroupMetric,
  access: string,
  groups: number,
  bound: number,
  aggregation: MultiGroupAggregation = 'difference',
): string {
  const of =
    metric === 'eodds'
      ? `the ${rateWords('eo', access)} and of the ${rateWords('pe', access)}`
      : `the ${rateWords(metric, access)}`;
  const each = metric === 'eodds' ? ', each (equalized odds)' : '';
  if (aggregation === 'ratio')
    return `H0 min ≥ ${bound} · max of ${of} over ${groups} groups (impact ratio ≥ ${bound})${each}`;
  return `H0 max − min of ${of} over ${groups} groups ≤ ${bound}${each}`;
}

/** Whether the oracle's rate violates the null (rounded to 12 decimals, so a value equal to the bound in decimals
 * does not violate by a rounding error; a ratio with max 0 has every rate 0, which complies). */
function oracleViolates(oracle: GroupRateOracle, aggregation: MultiGroupAggregation, bound: number): boolean {
  if (aggregation === 'ratio') return Number.isFinite(oracle.ratio) && Number(oracle.ratio.toFixed(12)) < bound;
  return Number(oracle.difference.toFixed(12)) > bound;
}

/** Refuses what the K-group audit does not run, naming the setting (name(key): a flag on the CLI). */
function checkMultiGroupSettings(valid: AuditPoolSettings, name: (key: string) => string): void {
  const refuse = (key: string, expected: string, found: unknown) => {
    throw inputError({ where: `${name(key)} (a pool of named groups)`, expected, found });
  };
  if (valid.test !== 'betting' && valid.test !== 'wald-glr') {
    refuse(
      'test',
      "betting (the anytime-valid K-group test, the default) or wald-glr (paper A's thresholds)",
      valid.test,
    );
  }
  if (valid.aggregation === 'ratio' && valid.test !== 'wald-glr') {
    refuse(
      'test',
      `wald-glr with ${name('aggregation')} ratio (the K-group GLR of H0 min ≥ ρ · max, at paper A's ` +
        'thresholds: no error guarantee; the betting test covers the difference only)',
      valid.test,
    );
  }
  if (valid.access !== 'decision' && valid.access !== 'score') refuse('access', 'decision or score', valid.access);
  if (valid.order !== 'random') refuse('order', 'random', valid.order);
}

/**
 * The metric's rows and its K-group test: one rate's rows and createMultiGroupTest, or for
 * eodds every row (label · K + group) and createEqualizedOddsTest over the label-0 (FPR) and
 * label-1 (TPR) rows. O(rows + K^2).
 */
function rowsAndTest(
  pool: AuditPool,
  valid: AuditPoolSettings,
  observed: ArrayLike<number>,
): { rows: MultiGroupRows; built: MultiGroupTest } {
  const options = (groupSizes: readonly number[]): MultiGroupTestOptions => ({
    groupSizes,
    test: valid.test as 'betting' | 'wald-glr',
    access: valid.access as 'decision' | 'score',
    aggregation: valid.aggregation,
    tolerance: valid.aggregation === 'ratio' ? valid.ratio : valid.tolerance,
    alpha: valid.alpha,
    beta: valid.beta,
  });
  if (valid.metric === 'eodds') {
    const rows = equalizedOddsRows(pool, observed);
    const built = createEqualizedOddsTest(options(rows.falsePositiveSizes), options(rows.truePositiveSizes));
    return { rows, built };
  }
  const rows = multiGroupRows(pool, valid.metric, observed);
  return { rows, built: createMultiGroupTest(options(rows.groupSizes)) };
}

/**
 * auditMultiGroupPool(pool, settings, name) audits a pool of named groups (K ≥ 2, e.g.
 * race × sex) for H0: max_g θ_g − min_g θ_g ≤ δ (aggregation difference) or min_g θ_g ≥ ρ ·
 * max_g θ_g (aggregation ratio, the impact ratio; wald-glr only), θ_g the group's SP, EO or
 * PE rate of decisions (or mean score); eodds tests the EO and PE rates together
 * (createEqualizedOddsTest). The test is the anytime-valid K-group betting test
 * (createMultiGroupTest) or wald-glr: `replicates` seeded audits (replicate r's random order
 * from deriveSeed(seed, r)), the oracle over all groups (rates, impact ratios, max − min, min /
 * max) and the verdict in words with its guarantee. Throws InputError for bad settings, a test
 * other than betting or wald-glr, betting with ratio, logit access, an order other than
 * random, or a group without rows of the metric. O(rows + replicates · min(budget, rows) · K).
 * @param pool a pool with groupNames
 * @param settings auditPool's settings
 * @param name turns a settings key into the words of a message
 * @returns the summary `fairaudit audit --json` prints for K groups
 * @example auditMultiGroupPool(readPoolFile('p.csv', { columns: { groups: 'sex,race' } }), { seed: '1' })
 */
export function auditMultiGroupPool(
  pool: AuditPool,
  settings: Partial<AuditPoolSettings> = {},
  name: (key: string) => string = (key) => `auditPool: ${key}`,
): MultiGroupAuditSummary {
  const valid = validateInput(withDefaultTest(settings), auditPoolSettingsSchema, (path) =>
    path.length === 0 ? name('settings') : name(path.map(String).join('.')),
  );
  checkMultiGroupSettings(valid, name);
  const access = valid.access as 'decision' | 'score';
  const observed = access === 'decision' ? pool.decision : pool.score;
  if (observed === null) {
    throw inputError({
      where: `${pool.source}: column "score"`,
      expected: 'a score column for score access',
      found: 'none',
    });
  }
  const { rows, built } = rowsAndTest(pool, valid, observed);
  const { test, guarantee } = built;
  const results: MultiGroupAuditResult[] = [];
  for (let r = 0; r < valid.replicates; r++) {
    results.push(runMultiGroupAudit(rows, test, valid.budget, createRandom(deriveSeed(valid.seed as string, r))));
  }
  const oracle = groupRateOracle(pool, valid.metric === 'eodds' ? 'eo' : valid.metric);
  const falsePositiveOracle = valid.metric === 'eodds' ? groupRateOracle(pool, 'pe') : undefined;
  const bound = valid.aggregation === 'ratio' ? valid.ratio : valid.tolerance;
  const violates = [oracle, ...(falsePositiveOracle === undefined ? [] : [falsePositiveOracle])].some((one) =>
    oracleViolates(one, valid.aggregation, bound),
  );
  const groups = groupCountOf(pool);
  const hypothesis = multiGroupHypothesisText(valid.metric, access, groups, bound, valid.aggregation);
  const common = {
    metric: valid.metric,
    aggregation: valid.aggregation,
    ...(valid.aggregation === 'ratio' ? { ratio: valid.ratio } : {}),
    access,
    groups,
    groupNames: pool.groupNames ?? ['0', '1'],
    ...(pool.groupSizeRule === undefined ? {} : { groupSizeRule: pool.groupSizeRule }),
    poolSize: rows.group.length,
    oracle,
    ...(falsePositiveOracle === undefined ? {} : { falsePositiveOracle }),
    oracleDecision: violates ? ('reject' as const) : ('accept' as const),
    hypothesis,
    guarantee,
    test: valid.test as 'betting' | 'wald-glr',
    tolerance: valid.tolerance,
    budget: valid.budget,
    alpha: valid.alpha,
    beta: valid.beta,
    order: 'random' as const,
    seed: valid.seed as string,
    replicates: valid.replicates,
  };
  if (valid.replicates === 1) {
    const [only] = results;
    const verdict = verdictOf(only.decision);
    return {
      ...common,
      decision: only.decision,
      verdict,
      verdictText: verdictText(verdict, hypothesis, only.queries, guarantee),
      queries: only.queries,
    };
  }
  const count = (decision: SequentialDecision) => results.filter((result) => result.decision === decision).length;
  const meanQueries = results.reduce((sum, result) => sum + result.queries, 0) / results.length;
  return {
    ...common,
    decisions: { reject: count('reject'), accept: count('accept'), inconclusive: count('inconclusive') },
    meanQueries: Number(meanQueries.toFixed(3)),
  };
}
